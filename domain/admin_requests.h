// Validation of request fields that are not about one resource: calendar
// years (holiday listings, admin and developer alike) and broker credential
// values.
#ifndef MDC_DOMAIN_ADMIN_REQUESTS_H_
#define MDC_DOMAIN_ADMIN_REQUESTS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The calendar year a holiday listing (admin or developer) asks for: 0 (absent)
// means the year of `now` in Asia/Kolkata; otherwise 1900-2200, else
// INVALID_ARGUMENT for the `year` field.
absl::StatusOr<int> ResolveYear(int64_t year, absl::Time now);

// A broker API key or secret: required, at most 4096 bytes, printable ASCII
// with no blanks (they are sent verbatim to the broker).
absl::Status CheckBrokerCredential(absl::string_view value);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_ADMIN_REQUESTS_H_
