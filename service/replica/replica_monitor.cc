#include "service/replica/replica_monitor.h"

#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "common/log.h"

namespace mdc {
namespace {

constexpr int64_t kUnknown = std::numeric_limits<int64_t>::min();

// How long a check waits for a pooled connection: a busy pool delays the
// check, it does not make the replica look down.
constexpr absl::Duration kProbeWait = absl::Seconds(2);

std::string Shown(absl::Duration lag) {
  return lag == absl::InfiniteDuration() ? "unknown"
                                         : absl::FormatDuration(lag);
}

}  // namespace

absl::string_view ReplicaStateName(ReplicaState state) {
  switch (state) {
    case ReplicaState::kStarting:
      return "starting";
    case ReplicaState::kInUse:
      return "in_use";
    case ReplicaState::kUnreachable:
      return "unreachable";
    case ReplicaState::kNotStandby:
      return "not_a_standby";
    case ReplicaState::kLagging:
      return "lagging";
  }
  return "unknown";
}

ReplicaMonitor::Probes ReplicaMonitor::OverPools(
    storage::ConnectionPool& primary, storage::ConnectionPool& replica) {
  return Probes{
      [&primary] {
        return storage::ReplicationRepository(primary).WalWritten(kProbeWait);
      },
      [&replica] {
        return storage::ReplicationRepository(replica).Replayed(kProbeWait);
      }};
}

ReplicaMonitor::ReplicaMonitor(Probes probes, absl::Duration max_lag,
                               ReplicaMetrics& metrics, absl::Duration interval)
    : probes_(std::move(probes)),
      max_lag_(max_lag),
      metrics_(metrics),
      interval_(interval),
      caught_up_ns_(kUnknown),
      // Samples older than twice the bound only tell that the replica is
      // over the bound.
      lag_(2 * max_lag),
      thread_([this] { Loop(); }) {
  metrics_.SetInUse(false);
}

ReplicaMonitor::~ReplicaMonitor() {
  stop_.Notify();
  thread_.join();
}

absl::Duration ReplicaMonitor::LagAt(absl::Time now) const {
  const int64_t ns = caught_up_ns_.load(std::memory_order_relaxed);
  if (ns == kUnknown) return absl::InfiniteDuration();
  return now - absl::FromUnixNanos(ns);
}

bool ReplicaMonitor::Route() {
  ReplicaState state = state_.load(std::memory_order_relaxed);
  // The lag grows between checks: compare it as of this read.
  if (state == ReplicaState::kInUse && LagAt(probes_.now()) > max_lag_) {
    state = ReplicaState::kLagging;
  }
  const bool replica = state == ReplicaState::kInUse;
  metrics_.ReadFrom(replica);
  if (!replica) metrics_.FellBack(ReplicaStateName(state));
  return replica;
}

void ReplicaMonitor::ReadFailed() {
  metrics_.ReadFrom(false);
  metrics_.FellBack("read_failed");
  ReplicaState expected = ReplicaState::kInUse;
  if (state_.compare_exchange_strong(expected, ReplicaState::kUnreachable)) {
    metrics_.SetInUse(false);
    log::Warning(
        "read on the replica failed; replica reads go to the primary until "
        "it answers a check");
  }
}

void ReplicaMonitor::Loop() {
  do {
    Check();
  } while (!stop_.WaitForNotificationWithTimeout(interval_));
}

void ReplicaMonitor::Check() {
  // Read before asking the primary: whatever committed before `sampled`
  // ends at or before the position it gives.
  const absl::Time sampled = probes_.now();
  auto wal = probes_.primary_wal();
  auto replay = probes_.standby();
  if (wal.ok()) lag_.PrimaryWrote(sampled, *wal);
  ReplicaState state = ReplicaState::kInUse;
  if (!replay.ok()) {
    state = ReplicaState::kUnreachable;
  } else if (!replay->in_recovery || !replay->replayed.has_value()) {
    state = ReplicaState::kNotStandby;
  } else {
    lag_.StandbyReplayed(*replay->replayed);
  }
  if (lag_.caught_up_to() != absl::InfinitePast()) {
    caught_up_ns_.store(absl::ToUnixNanos(lag_.caught_up_to()),
                        std::memory_order_relaxed);
  }
  const absl::Duration lag = LagAt(probes_.now());
  if (state == ReplicaState::kInUse && lag > max_lag_) {
    state = ReplicaState::kLagging;
  }
  state_.store(state);
  metrics_.SetLag(lag);
  metrics_.SetInUse(state == ReplicaState::kInUse);
  LogChange(state, lag);
  checks_.fetch_add(1);
}

void ReplicaMonitor::LogChange(ReplicaState now, absl::Duration lag) {
  if (now == logged_) return;
  logged_ = now;
  if (now == ReplicaState::kInUse) {
    log::Info("replica in use", {{"lag", Shown(lag)},
                                 {"max_lag", absl::FormatDuration(max_lag_)}});
  } else {
    log::Warning("replica not used; its reads go to the primary",
                 {{"reason", ReplicaStateName(now)},
                  {"lag", Shown(lag)},
                  {"max_lag", absl::FormatDuration(max_lag_)}});
  }
}

}  // namespace mdc
