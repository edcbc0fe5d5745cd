// The storage layer's reports (storage/observer.h) as Prometheus series:
// the connection pool, the batchers and the rows written per table. See
// docs/operations.md, "Metrics".
//
// Thread-safe; each report is a few atomic operations, no lock, for the
// pool's batchers and the tables the repositories write.
#ifndef MDC_SERVICE_METRICS_STORAGE_METRICS_H_
#define MDC_SERVICE_METRICS_STORAGE_METRICS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/metrics/storage_report_metrics.h"
#include "storage/observer.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Counter;
class Gauge;
class Histogram;
}  // namespace prometheus

namespace mdc {

class StorageMetrics final : public storage::StorageObserver {
 public:
  // Registers the series in `registry`, which must outlive this.
  explicit StorageMetrics(prometheus::Registry& registry);

  void PoolSized(int max) override;
  void PoolConnections(int in_use, int open) override;
  void PoolWaited(absl::Duration waited, bool timed_out) override;
  void PoolReconnected() override;
  void PoolConnectFailed() override;
  void BatchQueueDepth(absl::string_view batcher, int depth) override;
  void BatchRan(absl::string_view batcher, int statements,
                absl::Duration took) override;
  void BatchStatements(absl::string_view batcher, int sent) override;
  // The rows-written series of the write's table.
  void WriteCommitted(const storage::CommittedWrite& write) override;
  void StorageReported(
      const std::vector<storage::StorageUsage>& usage) override;

 private:
  // The series of one batcher. `name` views a string constant.
  struct BatcherSeries {
    absl::string_view name;
    prometheus::Gauge* queue_depth;
    prometheus::Histogram* batch_size;
    prometheus::Histogram* batch_duration;
    prometheus::Counter* statements;
  };
  struct TableSeries {
    absl::string_view table;  // a string constant
    prometheus::Counter* rows;
  };

  BatcherSeries MakeBatcher(absl::string_view name);
  // The series of the pool's batchers and of the tables the repositories
  // write exist from the start (at 0); others are made on first use.
  BatcherSeries Batcher(absl::string_view name);
  prometheus::Counter* Table(absl::string_view table);

  prometheus::Gauge* max_connections_;
  prometheus::Gauge* in_use_;
  prometheus::Gauge* open_;
  prometheus::Histogram* wait_;
  prometheus::Counter* wait_timeouts_;
  prometheus::Counter* reconnects_;
  prometheus::Counter* connect_failures_;
  prometheus::Family<prometheus::Gauge>* queue_depth_;
  prometheus::Family<prometheus::Histogram>* batch_size_;
  prometheus::Family<prometheus::Histogram>* batch_duration_;
  prometheus::Family<prometheus::Counter>* statements_;
  prometheus::Family<prometheus::Counter>* rows_written_;
  // Set in the constructor, read-only after: no lock.
  std::vector<BatcherSeries> batchers_;
  std::vector<TableSeries> tables_;
  StorageReportMetrics storage_report_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_STORAGE_METRICS_H_
