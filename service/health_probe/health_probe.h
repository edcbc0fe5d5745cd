// `mdc-server health`: the container health check. Asks the gRPC health
// service (grpc.health.v1, service "") of the server listening on this
// machine and exits 0 only when it answers SERVING. The server opens its port
// after migrations and the admin bootstrap, and answers NOT_SERVING while its
// database is unreachable or it drains (SIGTERM), so this is what a load
// balancer should believe; an image needs no other health client.
#ifndef MDC_SERVICE_HEALTH_PROBE_HEALTH_PROBE_H_
#define MDC_SERVICE_HEALTH_PROBE_HEALTH_PROBE_H_

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace mdc {

// The health command's lines of `mdc-server --help`.
const char* HealthCommandUsage();

// True when `args` (argv without the program) is the health command.
bool IsHealthCommand(const std::vector<std::string>& args);

// The address the probe dials for a listen address: a wildcard host
// (0.0.0.0, [::], or none) becomes the loopback address of its family.
std::string ProbeAddress(const std::string& listen_addr);

// Asks `addr`'s health service for service "" within `timeout`, over TLS
// when `tls` (the server's own certificate is not verified: the probe talks
// to the server on this machine and checks its state, not its identity).
// Returns 0 when SERVING; otherwise writes why to `err` and returns 1.
int ProbeHealth(const std::string& addr, bool tls, absl::Duration timeout,
                FILE* err);

// `mdc-server health [--grpc-addr host:port]`: probes MDC_GRPC_ADDR's port
// (default 127.0.0.1:50051; TLS when MDC_GRPC_TLS_CERT is set) within 3 s.
int RunHealthCommand(const std::vector<std::string>& args,
                     const std::function<const char*(const char*)>& getenv,
                     FILE* err);

}  // namespace mdc

#endif  // MDC_SERVICE_HEALTH_PROBE_HEALTH_PROBE_H_
