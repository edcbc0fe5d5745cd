// The limits the gRPC listener runs with, set deliberately rather than left
// to gRPC's defaults (docs/operations.md, "Limits"): threads, concurrent
// calls per connection, message sizes, metadata size, connection age.
#ifndef MDC_SERVICE_LIFECYCLE_GRPC_LIMITS_H_
#define MDC_SERVICE_LIFECYCLE_GRPC_LIMITS_H_

#include <grpcpp/server_builder.h>

#include "service/config/config.h"

namespace mdc {

// The largest message the server reads (direct gRPC callers; the gateway's
// bodies are at most 4 MiB of JSON, less as protobuf). Parsed, a message
// takes up to ~20 times its size (an empty depth level is 2 bytes on the
// wire and a 40-byte object), so this bounds what one direct call costs
// before its token is checked (docs/operations.md, "Memory per request").
inline constexpr int kMaxReceiveBytes = 4 << 20;
// The largest message the server sends (a long timeline page).
inline constexpr int kMaxSendBytes = 64 << 20;
// The most metadata (headers) a call may carry: gRPC's default, written
// down because the gateway answers 431 past it.
inline constexpr int kMaxMetadataBytes = 8 << 10;

// Applies the limits of `config` to `builder`.
void ApplyGrpcLimits(const Config& config, grpc::ServerBuilder& builder);

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_GRPC_LIMITS_H_
