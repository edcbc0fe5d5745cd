// Compaction of closed trading days' NIFTY quotes into the batches of
// migration 0015 (docs/architecture.md, "Compacted history"), run by
// CompactionRepository::CompactThrough after the stock quotes with the
// same guarantees: one month per transaction, the month's partition of
// nifty_quotes rewritten without the compacted days (no dead rows), an
// advisory lock per month of its own (several servers never compact a
// month at once; the rows are looked for again once it is held), and a
// day compacted again (written to since) re-encoded from both stores.
// Reads see both stores through storage/compacted_nifty.h.
#ifndef MDC_STORAGE_NIFTY_COMPACTION_H_
#define MDC_STORAGE_NIFTY_COMPACTION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "storage/compaction_repository.h"
#include "storage/pg.h"

namespace mdc::storage {

// The trading days up to `through` with NIFTY quotes in the row store.
absl::StatusOr<std::vector<absl::CivilDay>> NiftyDaysToCompact(
    Connection& conn, absl::CivilDay through);

// Compacts the NIFTY quotes of `days` (one month's) in the current
// transaction; counts into counts.nifty_* (busy_months when another server
// holds the month).
absl::Status CompactNiftyMonth(Connection& conn,
                               const std::vector<absl::CivilDay>& days,
                               CompactionCounts& counts);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_NIFTY_COMPACTION_H_
