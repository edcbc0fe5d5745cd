#include "domain/paging.h"

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace mdc::domain {
namespace {

// Versioned so the format can change without misreading old tokens.
constexpr absl::string_view kTokenPrefix = "t1:";

absl::Status BadToken() {
  return absl::InvalidArgumentError(
      "is not a page token this service issued; pass nextPageToken from the "
      "previous answer unchanged");
}

}  // namespace

absl::StatusOr<int> PageSize(int32_t requested) {
  if (requested < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "must be between 1 and ", kMaxPageSize, ", got ", requested));
  }
  if (requested == 0) return kDefaultPageSize;
  return requested > kMaxPageSize ? kMaxPageSize : requested;
}

std::string EncodePageToken(absl::Time last) {
  return absl::WebSafeBase64Escape(
      absl::StrCat(kTokenPrefix, absl::ToUnixMicros(last)));
}

absl::StatusOr<std::optional<absl::Time>> DecodePageToken(
    absl::string_view token) {
  if (token.empty()) return std::optional<absl::Time>();
  if (token.size() > 64) return BadToken();
  std::string decoded;
  if (!absl::WebSafeBase64Unescape(token, &decoded) ||
      !absl::StartsWith(decoded, kTokenPrefix)) {
    return BadToken();
  }
  int64_t micros = 0;
  if (!absl::SimpleAtoi(absl::string_view(decoded).substr(kTokenPrefix.size()),
                        &micros) ||
      micros < 0) {
    return BadToken();
  }
  return std::optional<absl::Time>(absl::FromUnixMicros(micros));
}

TimelinePage ParseTimelinePage(int32_t page_size, absl::string_view page_token,
                               FieldErrors& errors) {
  TimelinePage page;
  auto size = PageSize(page_size);
  errors.AddStatus("pageSize", size.status());
  if (size.ok()) page.size = *size;
  auto after = DecodePageToken(page_token);
  errors.AddStatus("pageToken", after.status());
  if (after.ok()) page.after = *after;
  return page;
}

}  // namespace mdc::domain
