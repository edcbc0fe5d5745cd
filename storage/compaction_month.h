// One month of one kind of market history compacted in the current
// transaction (docs/architecture.md, "Compacted history"): the steps the
// stock quotes' compaction (storage/compaction_repository.cc) and the NIFTY
// quotes' (storage/nifty_compaction.cc) share. Each kind names its own
// statements and its way of compacting one day.
#ifndef MDC_STORAGE_COMPACTION_MONTH_H_
#define MDC_STORAGE_COMPACTION_MONTH_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/time/civil_time.h"
#include "storage/compaction_repository.h"
#include "storage/pg.h"

namespace mdc::storage {

struct CompactedKind {
  // $1 a day of the month: the month's advisory lock, tried (bool).
  const Statement& try_month_turn;
  // $1 a day of the month: the name of its month partition (no row: none).
  const Statement& month_partition;
  // $1 the month: makes its partition (years 1900-2199 only).
  const Statement& add_month_partition;
  // The DEFAULT partition, locked when the month has no partition.
  const char* default_partition;
  // $1 days: those of them with rows in the row store.
  const Statement& days_with_rows;
  // Compacts one day from both stores into its batches, counting it.
  absl::Status (*compact_day)(Connection& conn, absl::CivilDay day,
                              CompactionCounts& counts);
  // $1 the partition, $2 days: swaps it for one without those days.
  const Statement& rewrite_partition;
  // $1 days: deletes their rows (a month without a partition).
  const Statement& delete_days;
};

// Compacts `days` (one month's) of `kind`: takes the month's turn (another
// server holds it: counts a busy month and returns), makes the month's
// partition if it is still in DEFAULT, locks it against writes (SHARE),
// lists again which days have rows, compacts each and gives their rows'
// space back by swapping the partition.
absl::Status CompactMonthOf(const CompactedKind& kind, Connection& conn,
                            const std::vector<absl::CivilDay>& days,
                            CompactionCounts& counts);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTION_MONTH_H_
