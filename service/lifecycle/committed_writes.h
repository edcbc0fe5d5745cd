// The server's storage observer: where every committed write goes. It
// passes the pool's and batchers' reports on to the metrics, and gives each
// CommittedWrite (storage/observer.h) to its three consumers:
//   - the rows-written metric (mdc_rows_written_total, StorageMetrics);
//   - the collectors' write tallies (WriteActivity), for a collector write,
//     which carries its writer's tally;
//   - the market hub's wake-up (WakeSignal), when the table holds records
//     the watch streams send, so the hub reads them and tells the other
//     servers at once instead of at its next tick.
// Storage stays unaware of metrics, tallies and streams (docs/
// architecture.md, "Layers" and "The write path").
//
// Thread-safe, as StorageObserver requires.
#ifndef MDC_SERVICE_LIFECYCLE_COMMITTED_WRITES_H_
#define MDC_SERVICE_LIFECYCLE_COMMITTED_WRITES_H_

#include <atomic>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/lifecycle/write_activity.h"
#include "service/streams/wake_signal.h"
#include "storage/observer.h"

namespace mdc {

// Whether `table` holds records the watch streams send.
bool IsMarketTable(absl::string_view table);

class CommittedWrites final : public storage::StorageObserver {
 public:
  // `metrics` gets every report; `market_commits` is raised for commits to
  // market tables. Both must outlive this.
  CommittedWrites(storage::StorageObserver& metrics, WakeSignal& market_commits)
      : metrics_(metrics), market_commits_(market_commits) {}

  // Where the tallies of collector writes go from now on; nullptr: nowhere
  // (before `tallies` is destroyed).
  //
  // CRAFT: set after construction, not passed to it, because the pool
  // reports here from its construction while WriteActivity needs the
  // pool's repositories; an atomic pointer keeps the write path lock-free.
  void TallyInto(WriteActivity* tallies) { tallies_.store(tallies); }

  void WriteCommitted(const storage::CommittedWrite& write) override;

  void PoolSized(int max) override { metrics_.PoolSized(max); }
  void PoolConnections(int in_use, int open) override {
    metrics_.PoolConnections(in_use, open);
  }
  void PoolWaited(absl::Duration waited, bool timed_out) override {
    metrics_.PoolWaited(waited, timed_out);
  }
  void PoolReconnected() override { metrics_.PoolReconnected(); }
  void PoolConnectFailed() override { metrics_.PoolConnectFailed(); }
  void BatchQueueDepth(absl::string_view batcher, int depth) override {
    metrics_.BatchQueueDepth(batcher, depth);
  }
  void BatchRan(absl::string_view batcher, int statements,
                absl::Duration took) override {
    metrics_.BatchRan(batcher, statements, took);
  }
  void BatchStatements(absl::string_view batcher, int sent) override {
    metrics_.BatchStatements(batcher, sent);
  }
  void StorageReported(
      const std::vector<storage::StorageUsage>& usage) override {
    metrics_.StorageReported(usage);
  }

 private:
  storage::StorageObserver& metrics_;
  WakeSignal& market_commits_;
  std::atomic<WriteActivity*> tallies_{nullptr};
};

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_COMMITTED_WRITES_H_
