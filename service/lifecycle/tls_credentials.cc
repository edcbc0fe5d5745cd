#include "service/lifecycle/tls_credentials.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace mdc {
namespace {

// The whole file, or INVALID_ARGUMENT naming `setting`.
absl::StatusOr<std::string> ReadPemFile(const char* setting,
                                        const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(absl::StrCat(
        setting, ": cannot read ", path, ": ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

std::unique_ptr<BIO, BioFree> MemoryBio(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(
      BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// OK when `cert_pem` starts with a certificate (the leaf of its chain) that
// `key_pem`'s private key belongs to.
absl::Status CheckKeyPair(const std::string& cert_path,
                          const std::string& cert_pem,
                          const std::string& key_path,
                          const std::string& key_pem) {
  std::unique_ptr<X509, X509Free> cert(
      PEM_read_bio_X509(MemoryBio(cert_pem).get(), nullptr, nullptr, nullptr));
  if (cert == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "MDC_GRPC_TLS_CERT: ", cert_path, " holds no PEM certificate"));
  }
  std::unique_ptr<EVP_PKEY, KeyFree> key(PEM_read_bio_PrivateKey(
      MemoryBio(key_pem).get(), nullptr, nullptr, nullptr));
  if (key == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("MDC_GRPC_TLS_KEY: ", key_path,
                     " holds no PEM private key (or one with a passphrase)"));
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("MDC_GRPC_TLS_KEY: the key in ", key_path,
                     " does not belong to the certificate in ", cert_path,
                     " (MDC_GRPC_TLS_CERT)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const std::string& cert_path, const std::string& key_path) {
  if (cert_path.empty() && key_path.empty()) {
    return grpc::InsecureServerCredentials();
  }
  if (cert_path.empty() || key_path.empty()) {
    return absl::InvalidArgumentError(
        "MDC_GRPC_TLS_CERT and MDC_GRPC_TLS_KEY go together: set both, or "
        "neither");
  }
  auto cert_pem = ReadPemFile("MDC_GRPC_TLS_CERT", cert_path);
  if (!cert_pem.ok()) return cert_pem.status();
  auto key_pem = ReadPemFile("MDC_GRPC_TLS_KEY", key_path);
  if (!key_pem.ok()) return key_pem.status();
  if (auto pair = CheckKeyPair(cert_path, *cert_pem, key_path, *key_pem);
      !pair.ok()) {
    return pair;
  }
  grpc::SslServerCredentialsOptions options(
      GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  options.pem_key_cert_pairs.push_back({*key_pem, *cert_pem});
  return grpc::SslServerCredentials(options);
}

}  // namespace mdc
