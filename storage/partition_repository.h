// The monthly partitions of the market history (migration 0010): creating
// them ahead of time and dropping those a retention bound leaves behind.
// The work is done by SQL functions of the migration; this only calls them.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_PARTITION_REPOSITORY_H_
#define MDC_STORAGE_PARTITION_REPOSITORY_H_

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "storage/market_data_repository.h"
#include "storage/pool.h"

namespace mdc::storage {

class PartitionRepository {
 public:
  explicit PartitionRepository(ConnectionPool& pool) : pool_(pool) {}

  // Creates the partitions of the current month (Asia/Kolkata) and of the
  // `months_ahead` months after it, and of any month whose rows landed in
  // a DEFAULT partition (they move into it). Returns the partitions
  // created; several servers may call it at once. Waits at most
  // `lock_wait` for each lock it needs, then fails with nothing changed.
  absl::StatusOr<int> EnsurePartitions(int months_ahead,
                                       absl::Duration lock_wait);

  // Removes all market data of trading days before `first_kept_day`, in
  // one transaction: partitions whose whole month is before it are dropped,
  // anything else (the DEFAULT partitions) deleted. Waits at most
  // `lock_wait` for the tables' locks (dropping a partition briefly locks
  // its table against writes), then fails with nothing removed.
  //
  // Both are maintenance, not calls: no statement timeout
  // (MDC_STATEMENT_TIMEOUT) applies, since counting the rows of a month
  // being dropped, or moving a backfilled month out of DEFAULT, may take
  // longer.
  absl::StatusOr<DataCounts> DropBefore(absl::CivilDay first_kept_day,
                                        absl::Duration lock_wait);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_PARTITION_REPOSITORY_H_
