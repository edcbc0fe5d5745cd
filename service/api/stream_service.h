// mdc.v1.StreamService: live watches of committed market records and day
// replay, over the gRPC callback API (service/streams/). It owns what the
// streams share: the MarketHub that listens for commits, and the worker
// threads for their blocking steps.
#ifndef MDC_SERVICE_API_STREAM_SERVICE_H_
#define MDC_SERVICE_API_STREAM_SERVICE_H_

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "mdc/v1/stream.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "service/streams/market_hub.h"
#include "service/streams/stream_slots.h"
#include "service/streams/stream_workers.h"
#include "service/streams/wake_signal.h"
#include "storage/instrument_repository.h"
#include "storage/market_event_repository.h"
#include "storage/pool.h"

namespace mdc {

class StreamService final : public v1::StreamService::CallbackService {
 public:
  // Starts the hub's thread, which listens on a connection of its own to
  // `database_url`; `commits` is raised when this server has committed
  // market records (CommittedWrites). Idle watches send a heartbeat
  // every `heartbeat`.
  // Watches and replays count against `slots` (per-developer caps).
  StreamService(CallRunner& calls, storage::ConnectionPool& pool,
                const std::string& database_url, WakeSignal& commits,
                absl::Duration heartbeat, StreamSlots& slots);
  ~StreamService() override;

  // Ends every watch (UNAVAILABLE: resume from the cursor in the message)
  // and refuses new ones; for a graceful shutdown, before the gRPC server's.
  void Stop();

  grpc::ServerWriteReactor<v1::MarketEvents>* WatchQuotes(
      grpc::CallbackServerContext* context,
      const v1::WatchQuotesRequest* request) override;
  grpc::ServerWriteReactor<v1::MarketEvents>* WatchNifty(
      grpc::CallbackServerContext* context,
      const v1::WatchNiftyRequest* request) override;
  grpc::ServerWriteReactor<v1::MarketEvents>* WatchShortlists(
      grpc::CallbackServerContext* context,
      const v1::WatchShortlistsRequest* request) override;
  grpc::ServerWriteReactor<v1::MarketEvents>* ReplayDay(
      grpc::CallbackServerContext* context,
      const v1::ReplayDayRequest* request) override;

 private:
  ServiceCalls calls_;
  storage::MarketEventRepository events_;
  storage::InstrumentRepository instruments_;
  const absl::Duration heartbeat_;
  StreamSlots& slots_;
  // Declared after what their threads use, so destroyed first.
  StreamWorkers workers_;
  MarketHub hub_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_STREAM_SERVICE_H_
