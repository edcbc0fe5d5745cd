#include "domain/ip_network.h"

#include <arpa/inet.h>

#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "domain/sign_in.h"

namespace mdc::domain {
namespace {

// The canonical address `ip` (CanonicalIp's form) as bytes; false when it
// is not one.
bool AddressBytes(const std::string& ip, bool* ipv6,
                  std::array<unsigned char, 16>* bytes) {
  bytes->fill(0);
  if (inet_pton(AF_INET, ip.c_str(), bytes->data()) == 1) {
    *ipv6 = false;
    return true;
  }
  *ipv6 = true;
  return inet_pton(AF_INET6, ip.c_str(), bytes->data()) == 1;
}

// Whether the first `bits` bits of `a` and `b` are equal.
bool SamePrefix(const std::array<unsigned char, 16>& a,
                const std::array<unsigned char, 16>& b, int bits) {
  const int whole = bits / 8;
  if (std::memcmp(a.data(), b.data(), whole) != 0) return false;
  const int rest = bits % 8;
  if (rest == 0) return true;
  const unsigned char mask = static_cast<unsigned char>(0xff << (8 - rest));
  return (a[whole] & mask) == (b[whole] & mask);
}

}  // namespace

std::optional<IpNetwork> IpNetwork::Parse(absl::string_view text) {
  const size_t slash = text.find('/');
  const absl::string_view address_text = text.substr(0, slash);
  std::optional<int> prefix;
  if (slash != absl::string_view::npos) {
    int bits = 0;
    const absl::string_view bits_text = text.substr(slash + 1);
    if (bits_text.empty() || bits_text.size() > 3) return std::nullopt;
    for (char c : bits_text) {
      if (!absl::ascii_isdigit(c)) return std::nullopt;
    }
    if (!absl::SimpleAtoi(bits_text, &bits)) return std::nullopt;
    prefix = bits;
  }
  // CanonicalIp writes an IPv4-mapped IPv6 address as IPv4: its prefix
  // then counts 96 bits fewer.
  const std::optional<std::string> address = CanonicalIp(address_text);
  if (!address.has_value()) return std::nullopt;
  const bool mapped = address->find(':') == std::string::npos &&
                      address_text.find(':') != absl::string_view::npos;
  IpNetwork network;
  if (!AddressBytes(*address, &network.ipv6_, &network.bytes_)) {
    return std::nullopt;
  }
  const int width = network.ipv6_ ? 128 : 32;
  int bits = prefix.value_or(mapped ? 128 : width);
  if (mapped) {
    if (bits < 96 || bits > 128) return std::nullopt;
    bits -= 96;
  }
  if (bits > width) return std::nullopt;
  network.prefix_bits_ = bits;
  // No bits may be set past the prefix.
  std::array<unsigned char, 16> masked{};
  for (int bit = 0; bit < bits; ++bit) {
    masked[bit / 8] |= network.bytes_[bit / 8] & (0x80 >> (bit % 8));
  }
  if (masked != network.bytes_) return std::nullopt;
  return network;
}

bool IpNetwork::Contains(absl::string_view ip) const {
  const std::optional<std::string> canonical = CanonicalIp(ip);
  if (!canonical.has_value()) return false;
  bool ipv6 = false;
  std::array<unsigned char, 16> bytes;
  if (!AddressBytes(*canonical, &ipv6, &bytes) || ipv6 != ipv6_) return false;
  return SamePrefix(bytes, bytes_, prefix_bits_);
}

std::string IpNetwork::ToString() const {
  char out[INET6_ADDRSTRLEN];
  if (inet_ntop(ipv6_ ? AF_INET6 : AF_INET, bytes_.data(), out, sizeof(out)) ==
      nullptr) {
    return "";
  }
  if (prefix_bits_ == (ipv6_ ? 128 : 32)) return out;
  return absl::StrCat(out, "/", prefix_bits_);
}

}  // namespace mdc::domain
