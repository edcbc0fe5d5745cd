// A self-signed certificate and its key, made in memory for TLS tests.
#ifndef MDC_TESTS_SUPPORT_TEST_CERTIFICATE_H_
#define MDC_TESTS_SUPPORT_TEST_CERTIFICATE_H_

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <string>

namespace mdc::testing {

// A self-signed certificate for "localhost" and its key, as PEM text.
struct KeyPair {
  std::string cert_pem;
  std::string key_pem;
};

inline std::string BioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(size));
}

inline KeyPair MakeKeyPair() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(
      name, "CN", MBSTRING_ASC,
      reinterpret_cast<const unsigned char*>("localhost"), -1, -1, 0);
  X509_set_issuer_name(cert, name);
  X509_sign(cert, key, EVP_sha256());
  BIO* cert_bio = BIO_new(BIO_s_mem());
  BIO* key_bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(cert_bio, cert);
  PEM_write_bio_PrivateKey(key_bio, key, nullptr, nullptr, 0, nullptr, nullptr);
  KeyPair pair{BioText(cert_bio), BioText(key_bio)};
  BIO_free(cert_bio);
  BIO_free(key_bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  return pair;
}

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_TEST_CERTIFICATE_H_
