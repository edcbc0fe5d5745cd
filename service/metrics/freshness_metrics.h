// The collectors' freshness as a Prometheus series (docs/operations.md,
// "Metrics"): mdc_developer_last_write_timestamp_seconds{developer, kind},
// when each developer last wrote market records of each kind, read from the
// database (developer_writes), so that every server exports the same values
// whichever server the writes went through. A timestamp, not an age, as the
// Prometheus guide advises: `time() -
// mdc_developer_last_write_timestamp_seconds` is the age, and it keeps growing
// even if a server stops being scraped.
//
// Labels: the developer's username and the kind (quotes, nifty, shortlists):
// one series per developer and kind it ever wrote; developers are few.
//
// Thread-safe.
#ifndef MDC_SERVICE_METRICS_FRESHNESS_METRICS_H_
#define MDC_SERVICE_METRICS_FRESHNESS_METRICS_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Gauge;
}  // namespace prometheus

namespace mdc {

class FreshnessMetrics {
 public:
  // A developer's last write of one kind.
  struct LastWrite {
    std::string developer;  // username
    std::string kind;       // quotes, nifty or shortlists
    absl::Time at;
  };

  // Registers the series in `registry`, which must outlive this.
  explicit FreshnessMetrics(prometheus::Registry& registry);

  // Makes the series exactly `latest`: each one set, and the series of
  // developers or kinds not in it (a deleted developer) removed.
  void Replace(const std::vector<LastWrite>& latest) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  prometheus::Family<prometheus::Gauge>* family_;
  absl::Mutex mu_;
  std::map<std::pair<std::string, std::string>, prometheus::Gauge*> series_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_FRESHNESS_METRICS_H_
