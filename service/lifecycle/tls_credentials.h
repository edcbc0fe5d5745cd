// The credentials of the gRPC listener: TLS from the PEM files of
// MDC_GRPC_TLS_CERT and MDC_GRPC_TLS_KEY (docs/operations.md, "TLS"), or
// plaintext when neither is set.
//
// The files are read and checked once, at start-up: a missing file, a file
// without PEM, or a key that does not belong to the certificate stops the
// server with a message naming the setting, where gRPC would only fail each
// handshake later. A renewed certificate takes a restart.
#ifndef MDC_SERVICE_LIFECYCLE_TLS_CREDENTIALS_H_
#define MDC_SERVICE_LIFECYCLE_TLS_CREDENTIALS_H_

#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace mdc {

// TLS credentials (TLS 1.2 or later, gRPC's minimum; no client certificate
// asked) for the certificate chain in `cert_path` and the private key in
// `key_path`; insecure ones when both paths are empty. INVALID_ARGUMENT
// naming the setting when only one is given, a file cannot be read or holds
// no PEM, or the key does not match the certificate.
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(
    const std::string& cert_path, const std::string& key_path);

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_TLS_CREDENTIALS_H_
