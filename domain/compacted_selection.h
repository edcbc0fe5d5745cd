// Picking a read's quotes out of decoded compacted batches in the read's
// own order, so the server can answer a page of a compacted day, or a
// symbol's latest quote, without handing every quote to PostgreSQL
// (storage/compacted_reads_fast.h; docs/architecture.md, "Compacted
// history"). Plain functions over runs of quotes ascending by instant.
#ifndef MDC_DOMAIN_COMPACTED_SELECTION_H_
#define MDC_DOMAIN_COMPACTED_SELECTION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "domain/quote_batch_codec.h"

namespace mdc::domain {

// A symbol's quotes (one batch) ascending by observed_at, with their
// instants side by side (InstantsOf): the searches and the merge read those,
// eight bytes a quote, not the quotes scattered in memory.
struct QuoteRun {
  const std::string* symbol;
  const std::vector<StoredQuote>* quotes;
  const std::vector<int64_t>* instants;
};

// The observed_at of each of `quotes`, in their order.
std::vector<int64_t> InstantsOf(const std::vector<StoredQuote>& quotes);

// One quote of a run.
struct QuoteRef {
  const std::string* symbol;
  const StoredQuote* quote;
};

// Whether `quotes` are ascending by instant with no two quotes at one instant
// (the order compaction writes a batch in); a read relies on it.
bool IsAscending(const std::vector<StoredQuote>& quotes);

// The first `limit` quotes of `runs` (each ascending) after the keyset
// bound (after_us, after_symbol) and before end_us, in the order (instant,
// symbol compared byte by byte: COLLATE "C"). With `priced_only`, only
// quotes with a last price count. Runs of one symbol must not overlap in
// time (batches of one symbol never do).
std::vector<QuoteRef> FirstQuotesAfter(const std::vector<QuoteRun>& runs,
                                       int64_t after_us,
                                       const std::string& after_symbol,
                                       int64_t end_us, int limit,
                                       bool priced_only = false);

// The latest quote of `run` (ascending) stamped in [not_before_us, at_us];
// null when none.
const StoredQuote* LatestWithin(const QuoteRun& run, int64_t not_before_us,
                                int64_t at_us);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_COMPACTED_SELECTION_H_
