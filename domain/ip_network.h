// IP networks in CIDR notation ("10.244.0.0/16", "fd00::/8"), for the
// proxies whose x-forwarded-for the server believes (MDC_TRUSTED_PROXIES):
// in Kubernetes a gateway pod's address changes with every restart, but it
// stays within the cluster's pod network.
//
// Pure functions and a value type. Thread-safe.
#ifndef MDC_DOMAIN_IP_NETWORK_H_
#define MDC_DOMAIN_IP_NETWORK_H_

#include <array>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// An IPv4 or IPv6 network: an address and how many of its leading bits a
// member shares with it.
class IpNetwork {
 public:
  // `text` as a network: "10.244.0.0/16", "fd00::/8", or one address
  // ("10.0.0.7", "::1"), the network of that address alone. An IPv4-mapped
  // IPv6 network of at least 96 bits ("::ffff:10.0.0.0/104") is its IPv4
  // network, as CanonicalIp maps such addresses. Returns nullopt for
  // anything else, including a prefix longer than the address and an
  // address with bits set past the prefix ("10.244.0.1/16": a typo for
  // either the address or the network).
  static std::optional<IpNetwork> Parse(absl::string_view text);

  // Whether the IP address `ip` (any form CanonicalIp reads) is in the
  // network. False for text that is not an IP address.
  bool Contains(absl::string_view ip) const;

  // Canonical text: the address alone for a single-address network
  // ("10.0.0.7", "::1"), else address/prefix ("10.244.0.0/16").
  std::string ToString() const;

 private:
  IpNetwork() = default;

  bool ipv6_ = false;
  int prefix_bits_ = 0;
  std::array<unsigned char, 16> bytes_{};  // IPv4: the first 4 used
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_IP_NETWORK_H_
