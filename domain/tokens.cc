#include "domain/tokens.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstdlib>
#include <memory>

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
  // Every call hashes its token. SHA256() makes OpenSSL 3 look the digest up
  // by name each time; the implementation fetched once and a context per
  // thread halve the cost.
  static EVP_MD* const kSha256 = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
  thread_local std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(
      EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned char digest[SHA256_DIGEST_LENGTH];
  unsigned int length = 0;
  if (kSha256 == nullptr || context == nullptr ||
      EVP_DigestInit_ex2(context.get(), kSha256, nullptr) != 1 ||
      EVP_DigestUpdate(context.get(), token.data(), token.size()) != 1 ||
      EVP_DigestFinal_ex(context.get(), digest, &length) != 1 ||
      length != sizeof digest) {
    // Out of memory or a broken OpenSSL: no hash to compare is no login.
    std::abort();
  }
  return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

bool ConstantTimeEquals(absl::string_view a, absl::string_view b) {
  return a.size() == b.size() &&
         CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace mdc::domain
