// Rules for developer accounts.
#ifndef MDC_SERVICE_DOMAIN_DEVELOPERS_H_
#define MDC_SERVICE_DOMAIN_DEVELOPERS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mdc::domain {

// 1-64 characters of A-Z a-z 0-9 _ . -
absl::Status CheckUsername(absl::string_view username);

}  // namespace mdc::domain

#endif  // MDC_SERVICE_DOMAIN_DEVELOPERS_H_
