#include "domain/tokens.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdlib>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace mdc::domain {

std::string GenerateToken() {
  unsigned char random[32];
  if (RAND_bytes(random, sizeof random) != 1) {
    // No entropy means no safe token; refusing to run is the only option.
    std::abort();
  }
  return absl::StrCat(
      "mdc_", absl::WebSafeBase64Escape(absl::string_view(
                  reinterpret_cast<const char*>(random), sizeof random)));
}

std::string HashToken(absl::string_view token) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(),
         digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  return a.size() == b.size() &&
         CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace mdc::domain
