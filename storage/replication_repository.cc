#include "storage/replication_repository.h"

namespace mdc::storage {
namespace {

// Positions as bytes from 0/0 (pg_lsn - pg_lsn is numeric; int8 holds any
// position PostgreSQL will reach).
constexpr Statement kWalWritten{
    "replication_wal_written",
    "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::int8"};
constexpr Statement kReplayed{
    "replication_replayed",
    "SELECT pg_is_in_recovery(), "
    "(pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8"};

}  // namespace

absl::StatusOr<int64_t> ReplicationRepository::WalWritten(absl::Duration wait) {
  auto conn = pool_.Acquire(wait);
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kWalWritten, Params());
  if (!result.ok()) return result.status();
  return result->Int64(0, 0);
}

absl::StatusOr<StandbyReplay> ReplicationRepository::Replayed(
    absl::Duration wait) {
  auto conn = pool_.Acquire(wait);
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kReplayed, Params());
  if (!result.ok()) return result.status();
  StandbyReplay replay;
  replay.in_recovery = result->Bool(0, 0);
  if (!result->IsNull(0, 1)) replay.replayed = result->Int64(0, 1);
  return replay;
}

}  // namespace mdc::storage
