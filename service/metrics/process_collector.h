// The standard Prometheus process metrics of this process
// (process_cpu_seconds_total, process_resident_memory_bytes,
// process_virtual_memory_bytes, process_open_fds, process_threads,
// process_start_time_seconds), read from /proc at each scrape, with the
// names and meaning the Go and Java clients give them.
//
// Thread-safe.
#ifndef MDC_SERVICE_METRICS_PROCESS_COLLECTOR_H_
#define MDC_SERVICE_METRICS_PROCESS_COLLECTOR_H_

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include <vector>

namespace mdc {

class ProcessCollector : public prometheus::Collectable {
 public:
  // No family at all when /proc cannot be read: a scrape never fails.
  std::vector<prometheus::MetricFamily> Collect() const override;
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_PROCESS_COLLECTOR_H_
