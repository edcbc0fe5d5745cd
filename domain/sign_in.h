// Rules of the dashboard sign-in limiter: who a client is, and how many
// failed attempts a minute it may make.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SIGN_IN_H_
#define MDC_DOMAIN_SIGN_IN_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// Failed sign-ins one client address may make with one token within one
// clock minute; the attempt after them with that token is refused until the
// minute is over. Other tokens from the same address are not affected, so a
// client failing behind a shared address (the gateway, a NAT) cannot lock
// another client out.
inline constexpr int kMaxSignInFailuresPerMinute = 10;

// Failed sign-ins one client address may make within one clock minute with
// all tokens together (guessing many tokens); the attempt after them is
// refused, whatever its token, until the minute is over. Only failures that
// were not refused count, so one client repeating a bad token stops
// counting at kMaxSignInFailuresPerMinute.
inline constexpr int kMaxSignInFailuresPerAddressPerMinute = 100;

// The key the per-token limit counts by: the address key (ClientKey), a
// space, and the first 16 hex digits of the token's SHA-256 (never the
// token itself).
std::string ClientTokenKey(absl::string_view client_key,
                           absl::string_view token);

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
