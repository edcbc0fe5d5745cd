// The fan-out of committed market records to the watch streams of this
// server. One thread LISTENs on a dedicated PostgreSQL connection for the
// NOTIFY every market write sends at commit (migration 0008), reads the
// records committed since the last it read ("seq > last", one keyset page at
// a time) and offers them, in seq order, to every subscriber whose
// selection they match. Any server's writes reach every server's watchers
// this way. When the listening connection is lost (the database restarted)
// the hub reconnects and reads everything committed meanwhile, so
// subscribers see a delay, never a gap.
//
// Thread-safe.
#ifndef MDC_SERVICE_STREAMS_MARKET_HUB_H_
#define MDC_SERVICE_STREAMS_MARKET_HUB_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "domain/stream_requests.h"
#include "storage/market_event_repository.h"

namespace mdc {

// A record as the hub shares it between subscribers: read once, never
// copied per subscriber.
using SharedEvent = std::shared_ptr<const storage::SeqEvent>;

class HubSubscriber {
 public:
  virtual ~HubSubscriber() = default;
  // The records it wants.
  virtual const domain::WatchSelection& selection() const = 0;
  // Takes records (selected ones, ascending seq) under the hub's lock: must
  // only queue them, never block or call into gRPC. Returns false when the
  // subscriber wants no more (the hub forgets it).
  virtual bool Offer(const std::vector<SharedEvent>& events) = 0;
  // Called after Offer, outside the hub's lock: send what was queued.
  virtual void Flush() = 0;
  // The hub is stopping (server shutdown): end the stream.
  virtual void Close() = 0;
};

class MarketHub {
 public:
  MarketHub(std::string database_url, storage::MarketEventRepository& events);
  // Stop()s.
  ~MarketHub();
  MarketHub(const MarketHub&) = delete;
  MarketHub& operator=(const MarketHub&) = delete;

  // Starts the listening thread.
  void Start();
  // Closes every subscriber and stops the thread; Subscribe then fails.
  void Stop();

  // Adds `subscriber`; returns the seq after which it will be offered
  // records (the last seq the hub has read). UNAVAILABLE until the hub has
  // first reached the database, and once it is stopping.
  absl::StatusOr<int64_t> Subscribe(std::shared_ptr<HubSubscriber> subscriber);
  void Unsubscribe(HubSubscriber* subscriber);

  // How many subscribers there are (for tests and logs).
  int subscribers();

 private:
  void Loop();
  // Reads and offers everything committed after last_seq_. False when the
  // database could not be read.
  bool CatchUp();
  void Offer(std::vector<storage::SeqEvent> events);

  const std::string database_url_;
  storage::MarketEventRepository& events_;

  absl::Mutex mu_;
  std::vector<std::shared_ptr<HubSubscriber>> subscribers_ ABSL_GUARDED_BY(mu_);
  std::optional<int64_t> last_seq_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_MARKET_HUB_H_
