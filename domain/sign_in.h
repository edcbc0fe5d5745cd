// Rules of the dashboard sign-in limiter: who a client is, and how many
// failed attempts a minute it may make.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SIGN_IN_H_
#define MDC_DOMAIN_SIGN_IN_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// Failed sign-ins one client address may make within one clock minute; the
// attempt after them is refused until the minute is over.
inline constexpr int kMaxSignInFailuresPerMinute = 10;

// The address a limiter counts by: a gRPC peer such as "ipv4:10.0.0.7:51234"
// or "ipv6:[::1]:51234" loses its scheme and port (a client gets a new port
// per connection), a plain address ("10.0.0.7", "::1") stays as it is.
std::string ClientKey(absl::string_view address);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SIGN_IN_H_
