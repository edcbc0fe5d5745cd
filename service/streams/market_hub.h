// The fan-out of committed market records to the watch streams of this
// server. One thread reads the records that have become final since the
// last it read (storage::MarketEventRepository::ListCommitted, one keyset
// page at a time) and offers them, in stream order, to every subscriber
// whose selection they match.
//
// When it reads: at once when this server commits market records (its
// WakeSignal, raised by CommittedWrites) or when another server
// announces commits (NOTIFY mdc_market_events, which each hub sends, at
// most every kNotifyGap, for its own server's commits, outside any write
// transaction: migration 0009); soon again while committed records wait
// behind an open older transaction; and every kTick regardless, which also
// picks up writes made with plain SQL. A hub without subscribers reads
// nothing: it only passes its server's commits on.
//
// When the listening connection is lost (the database restarted) the hub
// reconnects and reads everything committed meanwhile, so subscribers see a
// delay, never a gap. It also ticks every subscriber, which is how idle
// watches send their heartbeats.
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

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "domain/stream_cursors.h"
#include "domain/stream_requests.h"
#include "service/streams/wake_signal.h"
#include "storage/market_event_repository.h"

namespace mdc {

// A record as the hub shares it between subscribers: read once, never
// copied per subscriber.
using SharedEvent = std::shared_ptr<const storage::StreamEvent>;

class HubSubscriber {
 public:
  virtual ~HubSubscriber() = default;
  // The records it wants.
  virtual const domain::WatchSelection& selection() const = 0;
  // Takes records (selected ones, ascending position) under the hub's
  // lock: must only queue them, never block or call into gRPC. Returns
  // false when the subscriber wants no more (the hub forgets it).
  virtual bool Offer(const std::vector<SharedEvent>& events) = 0;
  // Called after Offer, outside the hub's lock: send what was queued.
  virtual void Flush() = 0;
  // Called at least every kTick, outside the hub's lock. Every record of
  // its selection up to `offered` has been offered to it.
  virtual void Tick(absl::Time now, const domain::StreamPosition& offered) = 0;
  // The hub is stopping (server shutdown): end the stream.
  virtual void Close() = 0;
};

class MarketHub {
 public:
  // `commits` is raised when this server has committed market records.
  MarketHub(std::string database_url, storage::MarketEventRepository& events,
            WakeSignal& commits);
  // Stop()s.
  ~MarketHub();
  MarketHub(const MarketHub&) = delete;
  MarketHub& operator=(const MarketHub&) = delete;

  // Starts the hub's thread.
  void Start();
  // Closes every subscriber and stops the thread; Subscribe then fails.
  void Stop();

  // Adds `subscriber`; returns the position after which it will be offered
  // records. A hub without subscribers first reads the latest final
  // position from the database (on the caller's thread). UNAVAILABLE when
  // the database cannot be read, and once the hub is stopping.
  absl::StatusOr<domain::StreamPosition> Subscribe(
      std::shared_ptr<HubSubscriber> subscriber);
  void Unsubscribe(HubSubscriber* subscriber);

  // How many subscribers there are (for tests and logs).
  int subscribers();

 private:
  void Loop();
  // With subscribers: reads and offers every final record after
  // position_; sets `held_back`. Without: forgets position_. False when
  // the database could not be read.
  bool CatchUp(bool& held_back);
  void Offer(std::vector<storage::StreamEvent> events);
  void TickSubscribers();

  const std::string database_url_;
  storage::MarketEventRepository& events_;
  WakeSignal& commits_;

  absl::Mutex mu_;
  std::vector<std::shared_ptr<HubSubscriber>> subscribers_ ABSL_GUARDED_BY(mu_);
  // Where reading resumes; set while there are subscribers.
  std::optional<domain::StreamPosition> position_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_MARKET_HUB_H_
