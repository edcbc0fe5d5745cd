// Bearer tokens: generation, hashing for storage, constant-time comparison.
// A token is "mdc_" followed by 43 URL-safe base64 characters (256 random
// bits). Only its SHA-256 is ever stored.
#ifndef MDC_DOMAIN_TOKENS_H_
#define MDC_DOMAIN_TOKENS_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// A fresh random token from the operating system's CSPRNG.
std::string GenerateToken();

// The 32-byte SHA-256 digest of a token, as stored in developers.token_hash.
std::string HashToken(absl::string_view token);

// Compares two byte strings in time independent of where they differ.
bool ConstantTimeEquals(absl::string_view a, absl::string_view b);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TOKENS_H_
