// Reads of compacted NIFTY days answered from the decoded batches in the
// server (docs/architecture.md, "Compacted history"), as the stock quotes'
// are (storage/compacted_reads_fast.h): what makes a NIFTY read of a
// compacted day as fast as the same read row-wise.
//
// Each takes the statement the read would run, its parameters and the
// CompactedNiftyFilter the general path (storage/compacted_nifty.h) would
// use. One statement lists the batches meeting the bounds (without their
// bytes: those come from the cache of decoded batches) and probes whether
// the row store holds any NIFTY quote within the same bounds. When it holds
// none (a closed day compacted whole) the answer is built from the decoded
// quotes in the statement's order, filters and limit, as the rows
// PostgreSQL would have sent; when it does (a late write to a compacted
// day) the page runs over both stores the general way, and the as-of takes
// the later of the row store's answer and the compacted one (the row at
// the same instant: it replaced the compacted quote).
#ifndef MDC_STORAGE_COMPACTED_NIFTY_FAST_H_
#define MDC_STORAGE_COMPACTED_NIFTY_FAST_H_

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/compacted_nifty.h"
#include "storage/pg.h"

namespace mdc::storage {

// The columns of a page of NIFTY quotes, as its statement selects them.
enum class NiftyPageColumns {
  kQuotes,       // (observed_at, day_change_perc, quote_data)
  kPricePoints,  // (observed_at, last_price, volume), priced quotes only
  kReplay,       // (observed_at, '', '', quote_data, day_change_perc)
};

// A page of NIFTY quotes: `statement` selects the quotes of the trading
// days [filter.from, filter.to] stamped after `after` and before `end`
// (and from `start` on), ascending by instant, `limit` rows. filter's
// instants must be given and cover (after, end).
absl::StatusOr<Result> NiftyPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    const CompactedNiftyFilter& filter, absl::Time start, absl::Time after,
    absl::Time end, int limit, NiftyPageColumns columns);

// The latest NIFTY quote of the trading days [filter.from, filter.to]
// stamped in [filter.not_before, filter.not_after]: `statement` answers it
// from nifty_quotes (the row store) in rows of (observed_at,
// day_change_perc, quote_data).
absl::StatusOr<Result> NiftyLatestSeeingCompacted(
    Connection& conn, const Statement& statement, const Params& params,
    const CompactedNiftyFilter& filter);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTED_NIFTY_FAST_H_
