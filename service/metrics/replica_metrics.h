// The read replica's series (DATABASE_READ_URL; docs/operations.md, "Read
// replica"): its lag as the server measures it, whether replica-routed reads
// use it, and where those reads went. Registered only when a replica is
// configured.
//
// Thread-safe; each report is an atomic operation, no lock.
#ifndef MDC_SERVICE_METRICS_REPLICA_METRICS_H_
#define MDC_SERVICE_METRICS_REPLICA_METRICS_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
}  // namespace prometheus

namespace mdc {

class ReplicaMetrics {
 public:
  // The reasons FellBack counts by (its label values): the replica's states
  // besides in use (ReplicaStateName, service/replica/replica_monitor.h),
  // and "read_failed".
  static constexpr absl::string_view kReasons[] = {
      "starting", "unreachable", "not_a_standby", "lagging", "read_failed"};

  // Registers the series in `registry`, which must outlive this.
  explicit ReplicaMetrics(prometheus::Registry& registry);

  // The replica's lag: +Inf until it is first seen caught up.
  void SetLag(absl::Duration lag);
  // Whether replica-routed reads go to the replica now.
  void SetInUse(bool in_use);
  // A replica-routed read was sent to the replica (true) or the primary.
  void ReadFrom(bool replica);
  // A replica-routed read went to the primary because of `reason` (one of
  // kReasons).
  void FellBack(absl::string_view reason);

 private:
  struct Reason {
    absl::string_view name;
    prometheus::Counter* count;
  };

  prometheus::Gauge* lag_;
  prometheus::Gauge* in_use_;
  prometheus::Counter* replica_reads_;
  prometheus::Counter* primary_reads_;
  std::vector<Reason> reasons_;  // set in the constructor, read-only after
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_REPLICA_METRICS_H_
