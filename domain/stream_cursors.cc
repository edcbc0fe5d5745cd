#include "domain/stream_cursors.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "domain/field_errors.h"

namespace mdc::domain {
namespace {

absl::Status BadCursor(absl::string_view what) {
  return InvalidField(
      "cursor",
      absl::StrCat("must be a cursor this stream returned (", what, ")"));
}

}  // namespace

std::string EncodeReplayCursor(const ReplayPosition& position) {
  return absl::StrCat("r", absl::WebSafeBase64Escape(absl::StrCat(
                               absl::ToUnixMicros(position.at), ",",
                               static_cast<int>(position.kind), ",",
                               position.key1, ",", position.key2)));
}

absl::StatusOr<ReplayPosition> ParseReplayCursor(absl::string_view text) {
  std::string plain;
  if (!absl::ConsumePrefix(&text, "r") ||
      !absl::WebSafeBase64Unescape(text, &plain)) {
    return BadCursor("not a replay cursor");
  }
  std::vector<absl::string_view> parts = absl::StrSplit(plain, ',');
  int64_t micros = 0;
  int kind = 0;
  if (parts.size() != 4 || !absl::SimpleAtoi(parts[0], &micros) ||
      !absl::SimpleAtoi(parts[1], &kind) || kind < 0 || kind > 2) {
    return BadCursor("malformed");
  }
  ReplayPosition position;
  position.at = absl::FromUnixMicros(micros);
  position.kind = static_cast<RecordKind>(kind);
  position.key1 = std::string(parts[2]);
  position.key2 = std::string(parts[3]);
  return position;
}

KeysetBound ResumeBound(const ReplayPosition& cursor, RecordKind source) {
  if (source < cursor.kind) {
    // Its records at the cursor's instant came before the cursor: start
    // after every key at that instant.
    return {cursor.at, std::string(kAfterEveryKey),
            std::string(kAfterEveryKey)};
  }
  if (source == cursor.kind) return {cursor.at, cursor.key1, cursor.key2};
  // Its records at the cursor's instant come after it: every key at that
  // instant (keys are never empty, so "" is below them all).
  return {cursor.at, "", ""};
}

KeysetBound DayStartBound(absl::Time day_start) {
  return {day_start - absl::Microseconds(1), "", ""};
}

std::string EncodeWatchCursor(const StreamPosition& position) {
  return absl::StrCat(position.txid, ".", position.seq);
}

namespace {

// 1-18 decimal digits, so the value fits int64 without a sign.
bool ParseCursorNumber(absl::string_view text, int64_t& value) {
  return !text.empty() && text.size() <= 18 &&
         std::all_of(text.begin(), text.end(), absl::ascii_isdigit) &&
         absl::SimpleAtoi(text, &value);
}

}  // namespace

absl::StatusOr<StreamPosition> ParseWatchCursor(absl::string_view text) {
  StreamPosition position;
  const size_t dot = text.find('.');
  const bool ok =
      dot == absl::string_view::npos
          ? ParseCursorNumber(text, position.seq)
          : ParseCursorNumber(text.substr(0, dot), position.txid) &&
                ParseCursorNumber(text.substr(dot + 1), position.seq);
  if (!ok) return BadCursor("decimal digits, as <txid>.<seq>");
  return position;
}

}  // namespace mdc::domain
