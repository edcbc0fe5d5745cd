#include "domain/sign_in.h"

#include "absl/strings/strip.h"

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

}  // namespace mdc::domain
