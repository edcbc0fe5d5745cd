#include "service/api/stream_service.h"

#include "domain/stream_requests.h"
#include "service/streams/replay_stream.h"
#include "service/streams/watch_stream.h"

namespace mdc {
namespace {

// Threads for token lookups, catch-up and replay pages. Each runs one
// blocking step at a time, so more replays than this share them.
constexpr int kStreamWorkers = 4;

}  // namespace

StreamService::StreamService(CallRunner& calls, storage::ConnectionPool& pool,
                             const std::string& database_url,
                             WakeSignal& commits, absl::Duration heartbeat,
                             StreamSlots& slots)
    : calls_(calls, v1::StreamService::service_full_name()),
      events_(pool),
      instruments_(pool),
      heartbeat_(heartbeat),
      slots_(slots),
      workers_(kStreamWorkers),
      hub_(database_url, events_, commits) {
  hub_.Start();
}

StreamService::~StreamService() { Stop(); }

void StreamService::Stop() { hub_.Stop(); }

grpc::ServerWriteReactor<v1::MarketEvents>* StreamService::WatchQuotes(
    grpc::CallbackServerContext* context,
    const v1::WatchQuotesRequest* request) {
  return StartWatch(
      {calls_.runner(), hub_, workers_, slots_, events_, heartbeat_}, context,
      calls_.Of(*request),
      [request = *request](const domain::BacktestClock& clock) {
        return domain::ParseWatchQuotes(request, clock);
      });
}

grpc::ServerWriteReactor<v1::MarketEvents>* StreamService::WatchNifty(
    grpc::CallbackServerContext* context,
    const v1::WatchNiftyRequest* request) {
  return StartWatch(
      {calls_.runner(), hub_, workers_, slots_, events_, heartbeat_}, context,
      calls_.Of(*request),
      [request = *request](const domain::BacktestClock& clock) {
        return domain::ParseWatchNifty(request, clock);
      });
}

grpc::ServerWriteReactor<v1::MarketEvents>* StreamService::WatchShortlists(
    grpc::CallbackServerContext* context,
    const v1::WatchShortlistsRequest* request) {
  return StartWatch(
      {calls_.runner(), hub_, workers_, slots_, events_, heartbeat_}, context,
      calls_.Of(*request),
      [request = *request](const domain::BacktestClock& clock) {
        return domain::ParseWatchShortlists(request, clock);
      });
}

grpc::ServerWriteReactor<v1::MarketEvents>* StreamService::ReplayDay(
    grpc::CallbackServerContext* context, const v1::ReplayDayRequest* request) {
  return StartReplay({calls_.runner(), workers_, slots_, events_, instruments_},
                     context, calls_.Of(*request), *request);
}

}  // namespace mdc
