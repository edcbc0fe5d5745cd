// How far a streaming standby is behind its primary, as time: the bound on
// the staleness of a read the standby answers (docs/architecture.md, "Reads
// and the replica").
//
// Measured from WAL positions, not from timestamps: the primary's WAL
// written (pg_current_wal_lsn) is sampled with the time it was sampled at,
// and the standby's replay position (pg_last_wal_replay_lsn) is compared
// with the samples. Once the standby has replayed what the primary had
// written at time t, every transaction committed before t is visible on it.
// Unlike now() - pg_last_xact_replay_timestamp(), this does not grow while
// the primary is idle (nothing to replay is no lag), and unlike
// pg_stat_replication's replay_lag it keeps growing while replay is stuck
// or paused.
//
// Not thread-safe: one thread (the replica monitor) records and asks.
#ifndef MDC_DOMAIN_REPLICA_LAG_H_
#define MDC_DOMAIN_REPLICA_LAG_H_

#include <cstdint>
#include <deque>

#include "absl/time/time.h"

namespace mdc::domain {

class ReplicaLag {
 public:
  // Samples older than `keep` are dropped: a standby behind by more than
  // that is reported as behind by at least that much, never less.
  explicit ReplicaLag(absl::Duration keep) : keep_(keep) {}

  // The primary had written WAL up to `position` (bytes) at `at`: any
  // transaction committed before `at` ends at or before `position`. `at` is
  // read before the position is asked for. Times must not go backwards.
  void PrimaryWrote(absl::Time at, int64_t position);

  // The standby has replayed WAL up to `replayed`: it now holds every
  // transaction committed before the latest sample at or below it.
  void StandbyReplayed(int64_t replayed);

  // Every transaction committed before this time is visible on the
  // standby; InfinitePast until a sample is known to be replayed.
  absl::Time caught_up_to() const { return caught_up_to_; }

  // How far behind the standby may be at `now`: now - caught_up_to(), so it
  // grows between measurements and while the standby cannot be asked.
  // InfiniteDuration until a sample is known to be replayed.
  absl::Duration LagAt(absl::Time now) const { return now - caught_up_to_; }

 private:
  struct Sample {
    absl::Time at;
    int64_t position;
  };

  const absl::Duration keep_;
  std::deque<Sample> samples_;  // oldest first; times non-decreasing
  absl::Time caught_up_to_ = absl::InfinitePast();
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_REPLICA_LAG_H_
