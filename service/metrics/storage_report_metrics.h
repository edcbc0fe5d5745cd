// The storage report as Prometheus series (docs/operations.md, "Metrics"
// and "Compacted history"): mdc_storage_rows{kind, month, form} and
// mdc_storage_bytes{kind, month, form}, the rows and the bytes on disk of
// each kind of market history (quotes, nifty, shortlists), month
// (YYYY-MM, or "default") and form (rows: the row store; compacted: the
// batches). The values are those of the last storage report this server
// read: the hourly history maintenance reads one, and so does every
// GET /v1/admin/data/storage. Bytes per row is a PromQL division.
//
// Thread-safe.
#ifndef MDC_SERVICE_METRICS_STORAGE_REPORT_METRICS_H_
#define MDC_SERVICE_METRICS_STORAGE_REPORT_METRICS_H_

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "storage/storage_report_repository.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Gauge;
}  // namespace prometheus

namespace mdc {

class StorageReportMetrics {
 public:
  // Registers the series in `registry`, which must outlive this.
  explicit StorageReportMetrics(prometheus::Registry& registry);

  // Makes the series exactly `usage`: each one set, and those of a month
  // or form no longer in the report (a month dropped by the retention, a
  // month whose rows were all compacted) removed.
  void Replace(const std::vector<storage::StorageUsage>& usage)
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  using Key = std::tuple<std::string, std::string, std::string>;
  struct Series {
    prometheus::Gauge* rows;
    prometheus::Gauge* bytes;
  };

  prometheus::Family<prometheus::Gauge>* rows_;
  prometheus::Family<prometheus::Gauge>* bytes_;
  absl::Mutex mu_;
  std::map<Key, Series> series_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_STORAGE_REPORT_METRICS_H_
