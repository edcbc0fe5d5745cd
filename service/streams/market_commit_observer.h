// The storage observer the server's pool reports to: it passes every report
// on (to the metrics) and raises the market hub's signal when rows of a
// market table were committed, so the hub reads them and tells the other
// servers at once instead of at its next tick. Storage stays unaware of the
// streams (docs/architecture.md, "Layers").
//
// Thread-safe, as StorageObserver requires.
#ifndef MDC_SERVICE_STREAMS_MARKET_COMMIT_OBSERVER_H_
#define MDC_SERVICE_STREAMS_MARKET_COMMIT_OBSERVER_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/streams/wake_signal.h"
#include "storage/observer.h"

namespace mdc {

// Whether `table` holds records the watch streams send.
bool IsMarketTable(absl::string_view table);

class MarketCommitObserver final : public storage::StorageObserver {
 public:
  MarketCommitObserver(storage::StorageObserver& next, WakeSignal& commits)
      : next_(next), commits_(commits) {}

  void PoolSized(int max) override { next_.PoolSized(max); }
  void PoolConnections(int in_use, int open) override {
    next_.PoolConnections(in_use, open);
  }
  void PoolWaited(absl::Duration waited, bool timed_out) override {
    next_.PoolWaited(waited, timed_out);
  }
  void PoolReconnected() override { next_.PoolReconnected(); }
  void PoolConnectFailed() override { next_.PoolConnectFailed(); }
  void BatchQueueDepth(absl::string_view batcher, int depth) override {
    next_.BatchQueueDepth(batcher, depth);
  }
  void BatchRan(absl::string_view batcher, int statements,
                absl::Duration took) override {
    next_.BatchRan(batcher, statements, took);
  }
  void BatchStatements(absl::string_view batcher, int sent) override {
    next_.BatchStatements(batcher, sent);
  }
  void RowsWritten(absl::string_view table, int64_t rows) override;
  void StorageReported(
      const std::vector<storage::StorageUsage>& usage) override {
    next_.StorageReported(usage);
  }

 private:
  storage::StorageObserver& next_;
  WakeSignal& commits_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_MARKET_COMMIT_OBSERVER_H_
