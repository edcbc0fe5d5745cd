#include "domain/runs.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "domain/number_limits.h"
#include "domain/text.h"

namespace mdc::domain {
namespace {

bool IsTagChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         c == '-';
}

// The rule a trimmed tag breaks, or "" when it is fine.
std::string TagProblem(absl::string_view tag) {
  if (tag.empty()) return "a tag must not be empty or only spaces";
  if (tag.size() > static_cast<size_t>(kMaxTagLength)) {
    return absl::StrCat("a tag has at most ", kMaxTagLength,
                        " characters; this one has ", tag.size());
  }
  if (!std::all_of(tag.begin(), tag.end(), IsTagChar)) {
    return absl::StrCat(
        "a tag may contain only letters, digits, '_' and "
        "'-' (no spaces); got ",
        QuoteForMessage(tag));
  }
  return "";
}

constexpr absl::string_view kTokenVersion = "1";

}  // namespace

std::vector<std::string> NormalizeTags(
    const google::protobuf::RepeatedPtrField<std::string>& tags,
    absl::string_view field, FieldErrors& errors) {
  std::vector<std::string> result;
  // Far too many to be duplicates of ten: one message, not one per tag.
  if (tags.size() > 10 * kMaxTags) {
    errors.Add(field, absl::StrCat("at most ", kMaxTags, " distinct tags; got ",
                                   tags.size(), " entries"));
    return result;
  }
  bool bad = false;
  for (int i = 0; i < tags.size(); ++i) {
    absl::string_view tag = absl::StripAsciiWhitespace(tags[i]);
    std::string problem = TagProblem(tag);
    if (!problem.empty()) {
      errors.Add(absl::StrCat(field, "[", i, "]"), problem);
      bad = true;
      continue;
    }
    result.emplace_back(tag);
  }
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  if (!bad && result.size() > static_cast<size_t>(kMaxTags)) {
    errors.Add(field, absl::StrCat("at most ", kMaxTags, " distinct tags; got ",
                                   result.size()));
  }
  return result;
}

absl::StatusOr<std::string> NormalizeTag(absl::string_view tag) {
  absl::string_view trimmed = absl::StripAsciiWhitespace(tag);
  std::string problem = TagProblem(trimmed);
  if (!problem.empty()) return absl::InvalidArgumentError(problem);
  return std::string(trimmed);
}

void CheckRunName(absl::string_view name, absl::string_view field,
                  FieldErrors& errors) {
  if (name.size() > static_cast<size_t>(kMaxRunNameLength)) {
    errors.Add(field, absl::StrCat("at most ", kMaxRunNameLength,
                                   " bytes; got ", name.size()));
    return;
  }
  if (const auto c = FindControlOrFormatCharacter(name)) {
    errors.Add(field, ControlOrFormatRule(*c));
  }
}

void CheckOrderPrices(std::optional<double> entry,
                      std::optional<double> stop_loss,
                      std::optional<double> take_profit, FieldErrors& errors) {
  bool all_valid = true;
  auto check = [&](absl::string_view field, std::optional<double> price) {
    if (!price.has_value()) {
      errors.Add(field, "is required");
      all_valid = false;
    } else if (!std::isfinite(*price) || *price < kMinOrderPrice ||
               *price > kMaxMagnitude) {
      errors.Add(field, absl::StrCat("must be a number from 0.000001 to ",
                                     kMaxMagnitudeText));
      all_valid = false;
    }
  };
  check("entryPrice", entry);
  check("stopLossPrice", stop_loss);
  check("takeProfitPrice", take_profit);
  if (!all_valid) return;
  if (!(*stop_loss < *entry)) {
    errors.Add("stopLossPrice", "must be below entryPrice");
  }
  if (!(*entry < *take_profit)) {
    errors.Add("takeProfitPrice", "must be above entryPrice");
  }
}

std::optional<int64_t> ParseRunId(absl::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value <= 0) return std::nullopt;
  return value;
}

std::string EncodeKeysetToken(absl::string_view kind,
                              const PageCursor& cursor) {
  return absl::WebSafeBase64Escape(absl::StrCat(kTokenVersion, ":", kind, ":",
                                                absl::ToUnixMicros(cursor.at),
                                                ":", cursor.id));
}

absl::StatusOr<std::optional<PageCursor>> DecodeKeysetToken(
    absl::string_view kind, absl::string_view token) {
  if (token.empty()) return std::optional<PageCursor>();
  const absl::Status bad = absl::InvalidArgumentError(
      "is not a page token of this list; pass the nextPageToken of the "
      "previous page unchanged");
  std::string plain;
  if (token.size() > 200 || !absl::WebSafeBase64Unescape(token, &plain)) {
    return bad;
  }
  std::vector<absl::string_view> parts = absl::StrSplit(plain, ':');
  int64_t micros = 0;
  int64_t id = 0;
  if (parts.size() != 4 || parts[0] != kTokenVersion || parts[1] != kind ||
      !absl::SimpleAtoi(parts[2], &micros) ||
      !absl::SimpleAtoi(parts[3], &id) || id <= 0) {
    return bad;
  }
  return std::optional<PageCursor>(
      PageCursor{absl::FromUnixMicros(micros), id});
}

}  // namespace mdc::domain
