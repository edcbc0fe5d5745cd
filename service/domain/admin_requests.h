// Validation of admin request fields that are not about one resource:
// lists of dates and broker credential values.
#ifndef MDC_SERVICE_DOMAIN_ADMIN_REQUESTS_H_
#define MDC_SERVICE_DOMAIN_ADMIN_REQUESTS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace mdc::domain {

inline constexpr int kMaxDatesPerRequest = 1000;

// Parses `dates` (JSON field `field`): 1 to kMaxDatesPerRequest dates
// "YYYY-MM-DD". Each bad element is reported as field[i]. Repeats are
// allowed and collapse; the result is ascending and distinct.
absl::StatusOr<std::vector<absl::CivilDay>> ParseDateList(
    absl::string_view field,
    const google::protobuf::RepeatedPtrField<std::string>& dates);

// A broker API key or secret: required, at most 4096 bytes, printable ASCII
// with no blanks (they are sent verbatim to the broker).
absl::Status CheckBrokerCredential(absl::string_view value);

}  // namespace mdc::domain

#endif  // MDC_SERVICE_DOMAIN_ADMIN_REQUESTS_H_
