#include "service/metrics/replica_metrics.h"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <limits>
#include <string>

namespace mdc {

ReplicaMetrics::ReplicaMetrics(prometheus::Registry& registry) {
  lag_ = &prometheus::BuildGauge()
              .Name("mdc_replica_lag_seconds")
              .Help(
                  "How far the read replica may be behind the primary: time "
                  "since it was last seen holding every commit (+Inf until "
                  "then)")
              .Register(registry)
              .Add({});
  in_use_ = &prometheus::BuildGauge()
                 .Name("mdc_replica_in_use")
                 .Help(
                     "1 while replica-routed reads go to the read replica, 0 "
                     "while they go to the primary")
                 .Register(registry)
                 .Add({});
  auto& reads = prometheus::BuildCounter()
                    .Name("mdc_replica_reads_total")
                    .Help(
                        "Replica-routed reads, by the database they were "
                        "sent to (replica or primary); a replica read that "
                        "failed and went to the primary counts on both")
                    .Register(registry);
  replica_reads_ = &reads.Add({{"database", "replica"}});
  primary_reads_ = &reads.Add({{"database", "primary"}});
  auto& fallbacks = prometheus::BuildCounter()
                        .Name("mdc_replica_fallbacks_total")
                        .Help(
                            "Replica-routed reads sent to the primary, by "
                            "reason")
                        .Register(registry);
  for (absl::string_view reason : kReasons) {
    reasons_.push_back(
        {reason, &fallbacks.Add({{"reason", std::string(reason)}})});
  }
  lag_->Set(std::numeric_limits<double>::infinity());
}

void ReplicaMetrics::SetLag(absl::Duration lag) {
  lag_->Set(lag == absl::InfiniteDuration()
                ? std::numeric_limits<double>::infinity()
                : absl::ToDoubleSeconds(lag));
}

void ReplicaMetrics::SetInUse(bool in_use) { in_use_->Set(in_use ? 1 : 0); }

void ReplicaMetrics::ReadFrom(bool replica) {
  (replica ? replica_reads_ : primary_reads_)->Increment();
}

void ReplicaMetrics::FellBack(absl::string_view reason) {
  for (const Reason& r : reasons_) {
    if (r.name == reason) {
      r.count->Increment();
      return;
    }
  }
}

}  // namespace mdc
