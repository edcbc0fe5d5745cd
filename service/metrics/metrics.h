// Prometheus metrics of the server, served as text on their own port
// (MDC_METRICS_ADDR) so scraping never competes with API traffic: RPCs
// (here), the database's health, the connection pool, batchers and rows
// written (storage_metrics.h), the collectors' freshness
// (freshness_metrics.h), and the process (process_collector.h). Every
// series is listed in docs/operations.md, "Metrics".
//
// Thread-safe.
#ifndef MDC_SERVICE_METRICS_METRICS_H_
#define MDC_SERVICE_METRICS_METRICS_H_

#include <array>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "storage/observer.h"

namespace prometheus {
class Exposer;
class Registry;
template <typename T>
class Family;
class Counter;
class Histogram;
class Gauge;
}  // namespace prometheus

namespace mdc {

class FreshnessMetrics;
class ProcessCollector;
class ReplicaMetrics;
class StorageMetrics;

class Metrics {
 public:
  Metrics();
  ~Metrics();

  // Starts serving /metrics on `address` (host:port). Does nothing for an
  // empty address.
  absl::Status Serve(const std::string& address);

  // One finished RPC: `service` is the full name of its service
  // ("mdc.v1.DashboardService"), `method` the RPC's ("GetQuoteTimeline").
  void RecordCall(absl::string_view service, absl::string_view method,
                  absl::StatusCode code, double seconds);

  // 1 while the database answers, 0 while it does not.
  void SetDatabaseUp(bool up);

  // What the connection pool reports to (storage/observer.h).
  storage::StorageObserver& storage_observer();

  // The read replica's series (replica_metrics.h), registered on the first
  // call: call it at start-up, and only when a replica is configured.
  ReplicaMetrics& replica();

  // The collectors' freshness (freshness_metrics.h).
  FreshnessMetrics& freshness();

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::shared_ptr<ProcessCollector> process_;
  std::unique_ptr<StorageMetrics> storage_;
  std::unique_ptr<ReplicaMetrics> replica_;
  std::unique_ptr<FreshnessMetrics> freshness_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  // The series of one RPC, found once: Family::Add builds and looks up a
  // label map on every call, which cost more than the rest of RecordCall.
  struct RpcSeries {
    prometheus::Histogram* latency = nullptr;
    std::array<prometheus::Counter*, 17> calls{};  // by absl::StatusCode
  };
  RpcSeries& SeriesOf(absl::string_view service, absl::string_view method)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  prometheus::Family<prometheus::Counter>* calls_;
  prometheus::Family<prometheus::Histogram>* latency_;
  absl::Mutex mu_;
  // By service, then method; never shrinks (the RPCs are a fixed set).
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, RpcSeries>>
      rpcs_ ABSL_GUARDED_BY(mu_);
  prometheus::Gauge* database_up_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_METRICS_H_
