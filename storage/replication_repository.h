// Where a primary's and a streaming standby's WAL stand, for measuring the
// standby's lag (domain/replica_lag.h). No tables: PostgreSQL's own
// functions, callable by any role.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_REPLICATION_REPOSITORY_H_
#define MDC_STORAGE_REPLICATION_REPOSITORY_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

// What a server that should be a standby says of its replay.
struct StandbyReplay {
  bool in_recovery = false;  // false: not a standby (never one, or promoted)
  // WAL replayed, bytes from 0/0; none when not in recovery.
  std::optional<int64_t> replayed;
};

class ReplicationRepository {
 public:
  // `pool` is the primary's or the standby's, as the method asks.
  explicit ReplicationRepository(ConnectionPool& pool) : pool_(pool) {}

  // On the primary: the WAL written so far, bytes from 0/0
  // (pg_current_wal_lsn). Every transaction committed before the call ends
  // at or before it. Waits at most `wait` for a connection.
  absl::StatusOr<int64_t> WalWritten(absl::Duration wait);

  // On the standby: pg_is_in_recovery() and pg_last_wal_replay_lsn().
  absl::StatusOr<StandbyReplay> Replayed(absl::Duration wait);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_REPLICATION_REPOSITORY_H_
