// Authenticated encryption of small secrets at rest (broker credentials),
// with AES-256-GCM from OpenSSL under the key MDC_SECRET_KEY gives.
//
// Key format: 32 random bytes written as 64 hexadecimal characters (e.g.
// `openssl rand -hex 32`) or as base64, standard or URL-safe, padded or not
// (e.g. `openssl rand -base64 32`).
//
// Sealed format: version byte 0x01, a random 12-byte nonce, the ciphertext,
// and the 16-byte GCM tag. A `context` string is bound in as associated
// data, so a value sealed for one column cannot be swapped into another.
//
// Thread-safe (immutable after construction).
#ifndef MDC_DOMAIN_SECRET_BOX_H_
#define MDC_DOMAIN_SECRET_BOX_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mdc::domain {

class SecretBox {
 public:
  static constexpr int kKeyBytes = 32;

  // Parses a key in either format above. INVALID_ARGUMENT otherwise; the
  // message never repeats the text given.
  static absl::StatusOr<SecretBox> FromKeyText(absl::string_view text);

  // Encrypts `plaintext`; every call uses a fresh random nonce.
  std::string Seal(absl::string_view plaintext,
                   absl::string_view context) const;

  // Decrypts what Seal produced with the same key and context. Returns
  // FAILED_PRECONDITION when the value was sealed under another key or
  // context, or was altered.
  absl::StatusOr<std::string> Open(absl::string_view sealed,
                                   absl::string_view context) const;

 private:
  explicit SecretBox(std::string key) : key_(std::move(key)) {}
  std::string key_;
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SECRET_BOX_H_
