// Compaction of closed trading days' stock quotes into the compressed
// columnar batches of migration 0013 (docs/architecture.md, "Compacted
// history"). Reads see both stores through storage/compacted_quotes.h.
//
// The unit of work is one month partition: every day of it asked for is
// compacted in one transaction, which also rewrites the partition without
// those days' rows (so their space goes back with no dead rows left). A
// kill at any moment leaves either the rows or the batches, never both or
// neither; the next run finds what is left in the row store and goes on.
// Several servers take turns per month (an advisory lock): a month another
// server is compacting is skipped, and the rows are looked for again once
// the lock is held, so no day is compacted twice.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_COMPACTION_REPOSITORY_H_
#define MDC_STORAGE_COMPACTION_REPOSITORY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

struct CompactionCounts {
  int days = 0;         // compacted (their rows were in the row store)
  int64_t quotes = 0;   // moved out of the row store
  int64_t batches = 0;  // written (a day compacted again rewrites its
                        // symbols' batches)
  int busy_months = 0;  // skipped: another server was compacting them
  // The NIFTY quotes' (storage/nifty_compaction.h), as above.
  int nifty_days = 0;
  int64_t nifty_quotes = 0;
  int64_t nifty_batches = 0;
};

class CompactionRepository {
 public:
  explicit CompactionRepository(ConnectionPool& pool) : pool_(pool) {}

  // Compacts the stock quotes, then the NIFTY quotes, of every trading day
  // up to `through` that has any in the row store, one month (of one kind)
  // per transaction. Waits at most
  // `lock_wait` for each table lock (the partition swap briefly locks
  // stock_quotes against reads and writes), then fails that month with
  // nothing changed. No statement timeout applies (maintenance).
  absl::StatusOr<CompactionCounts> CompactThrough(absl::CivilDay through,
                                                  absl::Duration lock_wait);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTION_REPOSITORY_H_
