#include "service/lifecycle/grpc_limits.h"

#include <grpcpp/resource_quota.h>

#include <algorithm>

#include "absl/time/time.h"

namespace mdc {

void ApplyGrpcLimits(const Config& config, grpc::ServerBuilder& builder) {
  // gRPC sets SO_REUSEPORT by default: a second server on a taken port
  // would silently share it instead of failing to start.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  // Handlers block on libpq; bound the threads so overload queues instead of
  // exhausting memory. An RPC arriving while every thread is busy would be
  // refused with RESOURCE_EXHAUSTED, so each connection may carry at most
  // half as many concurrent calls as there are threads (the other half
  // covers pollers and threads between calls): a client (the gateway)
  // queues the rest. Idle threads stay polling: with gRPC's default of at most
  // two pollers, the sync server would start and end a thread for most requests
  // under load. Streams (callback API, no thread while idle) count against the
  // per-connection limit too: HTTP/2 cannot tell a watch from a blocking call,
  // and raising the limit for them would let one connection's blocking calls
  // outnumber the threads. Watchers open more connections instead: the
  // gateway's stream pool (MDC_GATEWAY_STREAMS_PER_CONNECTION) and the clients.
  grpc::ResourceQuota quota("mdc-server");
  quota.SetMaxThreads(config.max_threads);
  builder.SetResourceQuota(quota);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             std::max(1, config.max_threads / 2));
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 2);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, config.max_threads);
  // MDC_MAX_CONNECTION_AGE: GOAWAY to connections that old; the client
  // reconnects, and one that resolves the servers through DNS (the gateway)
  // resolves the name again, so servers added since get calls. The grace
  // stays gRPC's default (unbounded): calls and watches in flight finish.
  if (config.max_connection_age > absl::ZeroDuration()) {
    builder.AddChannelArgument(
        GRPC_ARG_MAX_CONNECTION_AGE_MS,
        static_cast<int>(absl::ToInt64Milliseconds(config.max_connection_age)));
  }
  builder.AddChannelArgument(GRPC_ARG_MAX_METADATA_SIZE, kMaxMetadataBytes);
  builder.SetMaxReceiveMessageSize(kMaxReceiveBytes);
  builder.SetMaxSendMessageSize(kMaxSendBytes);
}

}  // namespace mdc
