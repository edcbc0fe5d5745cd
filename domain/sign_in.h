// Who a client is, for the failed-token throttle (domain/token_throttle.h):
// a client address in canonical form.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SIGN_IN_H_
#define MDC_DOMAIN_SIGN_IN_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// `text` as an IP address in canonical form ("::1", "10.0.0.7"; an
// IPv4-mapped IPv6 address as its IPv4 address), or nullopt when it is not
// an IP address.
std::optional<std::string> CanonicalIp(absl::string_view text);

// The address a limiter counts by: a gRPC peer such as "ipv4:10.0.0.7:51234"
// or "ipv6:[::1]:51234" loses its scheme and port (a client gets a new port
// per connection), a plain address ("10.0.0.7", "::1") stays as it is.
std::string ClientKey(absl::string_view address);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SIGN_IN_H_
