#include "domain/sign_in.h"

#include <arpa/inet.h>

#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "domain/tokens.h"

namespace mdc::domain {

std::string ClientKey(absl::string_view address) {
  if (absl::ConsumePrefix(&address, "ipv4:")) {
    const size_t colon = address.rfind(':');
    if (colon != absl::string_view::npos) address = address.substr(0, colon);
    return std::string(address);
  }
  if (absl::ConsumePrefix(&address, "ipv6:")) {
    if (absl::ConsumePrefix(&address, "[")) {
      const size_t close = address.find(']');
      if (close != absl::string_view::npos) address = address.substr(0, close);
    }
    return std::string(address);
  }
  // "unix:/path" and plain addresses are keys as they are.
  return std::string(address.substr(0, 200));
}

std::optional<std::string> CanonicalIp(absl::string_view text) {
  if (text.size() > 100) return std::nullopt;
  const std::string address(text);
  unsigned char bytes[16];
  char out[INET6_ADDRSTRLEN];
  if (inet_pton(AF_INET, address.c_str(), bytes) == 1) {
    if (inet_ntop(AF_INET, bytes, out, sizeof(out)) == nullptr) {
      return std::nullopt;
    }
    return std::string(out);
  }
  if (inet_pton(AF_INET6, address.c_str(), bytes) != 1) return std::nullopt;
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0,    0,
                                                0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(bytes, kMapped, sizeof(kMapped)) == 0) {
    if (inet_ntop(AF_INET, bytes + 12, out, sizeof(out)) == nullptr) {
      return std::nullopt;
    }
    return std::string(out);
  }
  if (inet_ntop(AF_INET6, bytes, out, sizeof(out)) == nullptr) {
    return std::nullopt;
  }
  return std::string(out);
}

}  // namespace mdc::domain
