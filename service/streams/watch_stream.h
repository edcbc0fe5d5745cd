// One watch RPC (WatchQuotes, WatchNifty, WatchShortlists) served by the
// gRPC callback API: it holds no thread while it waits for records.
//
// Life of a watch: on a stream worker, the call is authenticated and its
// request parsed (CallRunner::Run), then it subscribes to the MarketHub,
// which answers the stream position L after which it will offer live
// records. The first
// message (no events) tells the caller the watch is live. With a resume
// cursor C < L, the records of (C, L] of its selection are read from the
// database in pages and sent first; then the live ones, each exactly once.
//
// An idle watch sends a message without events, carrying the cursor, once
// `heartbeat` has passed since its last message: the caller learns that the
// connection is alive, and its cursor moves up to what the hub has read.
//
// A watcher that reads more slowly than its records arrive has them queued,
// up to kMaxQueuedEvents (or kMaxQueuedBytes); one more and the watch ends
// with
// RESOURCE_EXHAUSTED (reason WATCHER_FELL_BEHIND, metadata `cursor`), so a
// reader that never reads costs the server a bounded amount of memory.
#ifndef MDC_SERVICE_STREAMS_WATCH_STREAM_H_
#define MDC_SERVICE_STREAMS_WATCH_STREAM_H_

#include <grpcpp/support/server_callback.h>

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "domain/stream_requests.h"
#include "mdc/v1/stream.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/rpc_facts.h"
#include "service/streams/market_hub.h"
#include "service/streams/stream_slots.h"
#include "service/streams/stream_workers.h"
#include "storage/market_event_repository.h"

namespace mdc {

// Records a watch may have queued, unsent, before it is ended: this many,
// or this many bytes of them (serialized), whichever comes first.
inline constexpr int kMaxQueuedEvents = 10000;
inline constexpr int64_t kMaxQueuedBytes = 8 << 20;
// Records per message, at most.
inline constexpr int kMaxEventsPerMessage = 500;

// What the watch RPCs share.
struct WatchDeps {
  CallRunner& calls;
  MarketHub& hub;
  StreamWorkers& workers;
  StreamSlots& slots;
  storage::MarketEventRepository& events;
  absl::Duration heartbeat;
};

// Parses a watch's request under the call's backtest clock.
using ParseWatch = std::function<absl::StatusOr<domain::WatchSelection>(
    const domain::BacktestClock&)>;

// Starts a watch; the reactor deletes itself when the call is done.
grpc::ServerWriteReactor<v1::MarketEvents>* StartWatch(
    WatchDeps deps, grpc::CallbackServerContext* context, const RpcFacts& rpc,
    ParseWatch parse);

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_WATCH_STREAM_H_
