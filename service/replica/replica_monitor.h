// Decides, read by read, whether replica-routed reads (read_routing.h) may
// go to the read replica: a thread measures the replica's lag twice a
// second (domain/replica_lag.h: the primary's WAL written against the
// standby's WAL replayed), and a read goes to the replica only while it
// answered the last check as a standby and its lag, at the moment of the
// read, is within the bound (MDC_REPLICA_MAX_LAG). A read it answers
// therefore sees every write committed more than the bound before it.
// Otherwise the read goes to the primary. State changes are logged and
// the replica's series kept (service/metrics/replica_metrics.h).
//
// Thread-safe: Route and ReadFailed are a few atomic operations, called by
// request threads while the monitor's thread checks.
#ifndef MDC_SERVICE_REPLICA_REPLICA_MONITOR_H_
#define MDC_SERVICE_REPLICA_REPLICA_MONITOR_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "domain/replica_lag.h"
#include "service/metrics/replica_metrics.h"
#include "storage/pool.h"
#include "storage/replication_repository.h"

namespace mdc {

enum class ReplicaState {
  kStarting,     // not checked yet
  kInUse,        // a standby within the bound
  kUnreachable,  // no answer (down, network, or a read on it just failed)
  kNotStandby,   // answers, but is not in recovery (promoted, or a primary)
  kLagging,      // a standby further behind than the bound
};

// "starting", "in_use", "unreachable", "not_a_standby", "lagging": the
// reason label of mdc_replica_fallbacks_total and of the log lines.
absl::string_view ReplicaStateName(ReplicaState state);

class ReplicaMonitor {
 public:
  // How the monitor asks the databases. Called on its thread only.
  struct Probes {
    // The primary's WAL written (ReplicationRepository::WalWritten).
    std::function<absl::StatusOr<int64_t>()> primary_wal;
    // The standby's replay (ReplicationRepository::Replayed).
    std::function<absl::StatusOr<storage::StandbyReplay>()> standby;
    // The clock the lag is measured on (the checks' pace is not): tests
    // set it to see how a lag ages without waiting for it.
    std::function<absl::Time()> now = [] { return absl::Now(); };
  };

  // The production probes over both pools, which must outlive the monitor.
  static Probes OverPools(storage::ConnectionPool& primary,
                          storage::ConnectionPool& replica);

  // Starts the thread, which checks at once and then every `interval`.
  // `metrics` must outlive the monitor.
  ReplicaMonitor(Probes probes, absl::Duration max_lag, ReplicaMetrics& metrics,
                 absl::Duration interval = absl::Milliseconds(500));
  // Stops the thread, waiting for a check under way.
  ~ReplicaMonitor();

  ReplicaMonitor(const ReplicaMonitor&) = delete;
  ReplicaMonitor& operator=(const ReplicaMonitor&) = delete;

  // Whether a replica-routed read goes to the replica now. Counts the read's
  // database, and the reason when it is the primary.
  bool Route();

  // A read on the replica failed as a database failure (UNAVAILABLE,
  // ABORTED: down, or a query cancelled by a recovery conflict) and is
  // sent to the primary: counted, and reads go to the primary until the
  // next check finds the replica answering.
  void ReadFailed();

  // The state at the last check (or ReadFailed since).
  ReplicaState state() const { return state_.load(); }

  // How many checks have ended: a test waits for the next ones instead of
  // for a time.
  int64_t checks() const { return checks_.load(); }

 private:
  void Loop();
  // One check: asks both databases, updates the lag, the state and the
  // series, and logs a change.
  void Check();
  absl::Duration LagAt(absl::Time now) const;
  // Logs `now` when it differs from the state last logged.
  void LogChange(ReplicaState now, absl::Duration lag);

  const Probes probes_;
  const absl::Duration max_lag_;
  ReplicaMetrics& metrics_;
  const absl::Duration interval_;
  std::atomic<ReplicaState> state_{ReplicaState::kStarting};
  std::atomic<int64_t> checks_{0};
  // domain::ReplicaLag::caught_up_to() in Unix nanoseconds; INT64_MIN until
  // known.
  std::atomic<int64_t> caught_up_ns_;
  // The thread's only.
  domain::ReplicaLag lag_;
  ReplicaState logged_ = ReplicaState::kStarting;
  absl::Notification stop_;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace mdc

#endif  // MDC_SERVICE_REPLICA_REPLICA_MONITOR_H_
