#include "service/health_probe/health_probe.h"

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace mdc {
namespace {

constexpr char kDefaultAddr[] = "127.0.0.1:50051";
constexpr char kUsage[] =
    "health check (containers):\n"
    "  mdc-server health [--grpc-addr host:port]\n"
    "Exits 0 when the server at MDC_GRPC_ADDR (a wildcard host means this"
    " machine) answers SERVING within 3 s, else 1.\n";

std::shared_ptr<grpc::ChannelCredentials> Credentials(bool tls) {
  if (!tls) return grpc::InsecureChannelCredentials();
  grpc::experimental::TlsChannelCredentialsOptions options;
  // Neither the chain nor the name: gRPC checks the name by default even
  // when it does not verify the chain.
  options.set_verify_server_certs(false);
  options.set_check_call_host(false);
  options.set_certificate_verifier(
      std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
  return grpc::experimental::TlsCredentials(options);
}

}  // namespace

const char* HealthCommandUsage() { return kUsage; }

bool IsHealthCommand(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "health";
}

std::string ProbeAddress(const std::string& listen_addr) {
  const size_t colon = listen_addr.rfind(':');
  if (colon == std::string::npos) return listen_addr;
  const std::string host = listen_addr.substr(0, colon);
  const std::string port = listen_addr.substr(colon + 1);
  if (host.empty() || host == "0.0.0.0")
    return absl::StrCat("127.0.0.1:", port);
  if (host == "[::]") return absl::StrCat("[::1]:", port);
  return listen_addr;
}

int ProbeHealth(const std::string& addr, bool tls, absl::Duration timeout,
                FILE* err) {
  auto channel = grpc::CreateChannel(addr, Credentials(tls));
  auto stub = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  grpc::health::v1::HealthCheckRequest request;  // service "": the server
  grpc::health::v1::HealthCheckResponse response;
  const grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) {
    std::fprintf(err, "mdc-server health: %s: %s\n", addr.c_str(),
                 status.error_message().c_str());
    return 1;
  }
  if (response.status() != grpc::health::v1::HealthCheckResponse::SERVING) {
    std::fprintf(err, "mdc-server health: %s: %s\n", addr.c_str(),
                 grpc::health::v1::HealthCheckResponse::ServingStatus_Name(
                     response.status())
                     .c_str());
    return 1;
  }
  return 0;
}

int RunHealthCommand(const std::vector<std::string>& args,
                     const std::function<const char*(const char*)>& getenv,
                     FILE* err) {
  std::string listen = kDefaultAddr;
  if (const char* v = getenv("MDC_GRPC_ADDR"); v != nullptr && *v != '\0') {
    listen = v;
  }
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--grpc-addr" && i + 1 < args.size()) {
      listen = args[++i];
    } else if (absl::StartsWith(args[i], "--grpc-addr=")) {
      listen = args[i].substr(sizeof("--grpc-addr=") - 1);
    } else {
      std::fprintf(err, "unknown argument '%s'\n%s", args[i].c_str(), kUsage);
      return 2;
    }
  }
  const char* cert = getenv("MDC_GRPC_TLS_CERT");
  const bool tls = cert != nullptr && *cert != '\0';
  return ProbeHealth(ProbeAddress(listen), tls, absl::Seconds(3), err);
}

}  // namespace mdc
