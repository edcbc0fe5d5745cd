#include "domain/admin_requests.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "domain/calendar.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<int> ResolveYear(int64_t year, absl::Time now) {
  if (year == 0) return static_cast<int>(TradingDay(now).year());
  if (year < kFirstCalendarYear || year > kLastCalendarYear) {
    return InvalidField("year", "must be a year between 1900 and 2200");
  }
  return static_cast<int>(year);
}

absl::Status CheckBrokerCredential(absl::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("is required");
  if (value.size() > 4096) {
    return absl::InvalidArgumentError("must be at most 4096 characters");
  }
  for (char c : value) {
    if (!absl::ascii_isgraph(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          "must be printable ASCII without blanks or control characters");
    }
  }
  return absl::OkStatus();
}

}  // namespace mdc::domain
