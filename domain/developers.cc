#include "domain/developers.h"

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace mdc::domain {
namespace {

constexpr absl::string_view kPageTokenPrefix = "developers-after:";

}  // namespace

absl::Status CheckUsername(absl::string_view username) {
  bool ok = !username.empty() && username.size() <= 64;
  for (char c : username) {
    ok = ok && (absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                c == '_' || c == '.' || c == '-');
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(
      username.empty() ? "is required: 1-64 characters of A-Z a-z 0-9 _ . -"
                       : "must be 1-64 characters of A-Z a-z 0-9 _ . -");
}

absl::StatusOr<int64_t> ParseDeveloperId(absl::string_view text) {
  int64_t id = 0;
  bool digits = !text.empty() && text.size() <= 18;
  for (char c : text) digits = digits && absl::ascii_isdigit(c);
  if (!digits || !absl::SimpleAtoi(text, &id) || id <= 0) {
    return absl::InvalidArgumentError(
        "must be a developer id: a positive whole number");
  }
  return id;
}

absl::StatusOr<int> ResolvePageSize(int64_t page_size) {
  if (page_size == 0) return kDefaultPageSize;
  if (page_size < 0 || page_size > kMaxPageSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("must be between 1 and ", kMaxPageSize,
                     " (0 or absent means ", kDefaultPageSize, ")"));
  }
  return static_cast<int>(page_size);
}

std::string EncodeDeveloperPageToken(int64_t after_id) {
  return absl::WebSafeBase64Escape(absl::StrCat(kPageTokenPrefix, after_id));
}

absl::StatusOr<int64_t> DecodeDeveloperPageToken(absl::string_view token) {
  if (token.empty()) return 0;
  std::string decoded;
  absl::string_view rest;
  if (token.size() <= 64 && absl::WebSafeBase64Unescape(token, &decoded)) {
    rest = decoded;
  }
  if (absl::ConsumePrefix(&rest, kPageTokenPrefix)) {
    auto id = ParseDeveloperId(rest);
    if (id.ok()) return *id;
  }
  return absl::InvalidArgumentError(
      "is not a page token this API returned; pass nextPageToken unchanged");
}

bool LastSeenDue(std::optional<absl::Time> last_seen, absl::Time now) {
  return !last_seen.has_value() || now - *last_seen >= kLastSeenResolution;
}

}  // namespace mdc::domain
