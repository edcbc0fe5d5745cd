#include "domain/secret_box.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"

namespace mdc::domain {
namespace {

constexpr char kVersion = 0x01;
constexpr int kNonceBytes = 12;
constexpr int kTagBytes = 16;

using CipherContext =
    std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext NewContext() {
  return CipherContext(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
}

const unsigned char* Bytes(absl::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

bool IsHex(absl::string_view text) {
  for (char c : text) {
    if (!absl::ascii_isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<SecretBox> SecretBox::FromKeyText(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  std::string key;
  if (text.size() == 2 * kKeyBytes && IsHex(text)) {
    key = absl::HexStringToBytes(text);
  } else if (!absl::Base64Unescape(text, &key) &&
             !absl::WebSafeBase64Unescape(text, &key)) {
    key.clear();
  }
  if (key.size() != kKeyBytes) {
    return absl::InvalidArgumentError(
        "MDC_SECRET_KEY must be 32 random bytes as 64 hex characters "
        "(openssl rand -hex 32) or as base64 (openssl rand -base64 32)");
  }
  return SecretBox(std::move(key));
}

std::string SecretBox::Seal(absl::string_view plaintext,
                            absl::string_view context) const {
  std::string out(1 + kNonceBytes + plaintext.size() + kTagBytes, '\0');
  out[0] = kVersion;
  auto* nonce = reinterpret_cast<unsigned char*>(&out[1]);
  auto* cipher = nonce + kNonceBytes;
  auto* tag = cipher + plaintext.size();
  CipherContext ctx = NewContext();
  int length = 0;
  // Failures here mean OpenSSL itself is broken (no entropy, no memory);
  // storing a secret unencrypted is never an option, so stop.
  if (RAND_bytes(nonce, kNonceBytes) != 1 || ctx == nullptr ||
      EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(key_),
                         nonce) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &length, Bytes(context),
                        static_cast<int>(context.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), cipher, &length, Bytes(plaintext),
                        static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), cipher + length, &length) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag) !=
          1) {
    std::abort();
  }
  return out;
}

absl::StatusOr<std::string> SecretBox::Open(absl::string_view sealed,
                                            absl::string_view context) const {
  const auto refused = [] {
    return absl::FailedPreconditionError(
        "stored secret cannot be decrypted with the current MDC_SECRET_KEY; "
        "store it again");
  };
  if (sealed.size() < 1 + kNonceBytes + kTagBytes || sealed[0] != kVersion) {
    return refused();
  }
  const auto* nonce = Bytes(sealed.substr(1));
  const absl::string_view cipher = sealed.substr(
      1 + kNonceBytes, sealed.size() - 1 - kNonceBytes - kTagBytes);
  std::string tag(sealed.substr(sealed.size() - kTagBytes));
  std::string plain(cipher.size(), '\0');
  auto* out = reinterpret_cast<unsigned char*>(plain.data());
  CipherContext ctx = NewContext();
  int length = 0;
  if (ctx == nullptr ||
      EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(key_),
                         nonce) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &length, Bytes(context),
                        static_cast<int>(context.size())) != 1 ||
      EVP_DecryptUpdate(ctx.get(), out, &length, Bytes(cipher),
                        static_cast<int>(cipher.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes,
                          tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), out + length, &length) != 1) {
    return refused();
  }
  return plain;
}

}  // namespace mdc::domain
