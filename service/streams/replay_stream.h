// One ReplayDay RPC served by the gRPC callback API: every stored record of a
// trading day, merged in replay order (domain/stream_cursors.h) from one
// keyset-paged source per kind, so at most a page per kind and two messages
// are in memory whatever the day's size. A stream worker prepares the next
// message while the previous one is being sent.
#ifndef MDC_SERVICE_STREAMS_REPLAY_STREAM_H_
#define MDC_SERVICE_STREAMS_REPLAY_STREAM_H_

#include <grpcpp/support/server_callback.h>

#include <string>

#include "mdc/v1/stream.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/rpc_facts.h"
#include "service/streams/stream_slots.h"
#include "service/streams/stream_workers.h"
#include "storage/instrument_repository.h"
#include "storage/market_event_repository.h"

namespace mdc {

// Records read from the database per kind and round trip.
inline constexpr int kReplayPage = 4000;
// Records per message.
inline constexpr int kReplayEventsPerMessage = 1000;

struct ReplayDeps {
  CallRunner& calls;
  StreamWorkers& workers;
  StreamSlots& slots;
  storage::MarketEventRepository& events;
  // Listed symbols follow their instrument across renames (docs/api.md
  // section 13.5): the day replays the symbol each had that day.
  storage::InstrumentRepository& instruments;
};

// Starts a replay; the reactor deletes itself when the call is done.
grpc::ServerWriteReactor<v1::MarketEvents>* StartReplay(
    ReplayDeps deps, grpc::CallbackServerContext* context, const RpcFacts& rpc,
    const v1::ReplayDayRequest& request);

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_REPLAY_STREAM_H_
