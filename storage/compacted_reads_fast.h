// Reads of compacted days answered from the decoded batches in the server
// (docs/architecture.md, "Compacted history"): the paths that make a read
// of a compacted day as fast as the same read row-wise.
//
// Each takes the statement the read would run and its parameters, so when
// the bounds meet no batch the statement runs as it always did. Otherwise:
// - a page (of a day, or of one symbol's range): the batches' quotes are
//   merged in the statement's order in C++ and cut at its limit. When the
//   row store holds no quote within the page's bounds (the common case: a
//   closed day compacted whole), that is the answer, built as the rows
//   PostgreSQL would have sent. When it does (a late write to a compacted
//   day), the statement runs over both stores (compacted_quotes.h), given
//   only the compacted quotes it can use;
// - the latest quote of symbols (as-of, cross-section): the statement runs
//   on the row store alone, and each symbol's answer is the later of its
//   row and its compacted quote (the row at the same instant: it replaced
//   the compacted one). Only the one batch per symbol that can hold it is
//   read.
#ifndef MDC_STORAGE_COMPACTED_READS_FAST_H_
#define MDC_STORAGE_COMPACTED_READS_FAST_H_

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/candles.h"
#include "domain/compacted_selection.h"
#include "domain/stream_cursors.h"
#include "domain/symbol_day.h"
#include "storage/compacted_quotes.h"
#include "storage/pg.h"

namespace mdc::storage {

// A page of a day's quotes answered from the compacted batches alone: the
// quotes in the page's order, pointing into the batches held here (the
// payloads are not copied out).
struct CompactedDayPage {
  std::shared_ptr<const CompactedBatches> batches;
  std::vector<domain::QuoteRef> quotes;
};

// What a page of a day is read as: PostgreSQL's rows, or compacted quotes.
using DayPage = std::variant<Result, CompactedDayPage>;

// A page of a day's quotes (replay, exports): `statement` selects
// (observed_at, nse_symbol, '', quote_data, NULL::float8) of `day` after
// `bound` (instant, then symbol COLLATE "C") and before `end`, of
// `symbols` (all when empty), in that order, `limit` rows.
absl::StatusOr<DayPage> DayPageOfQuotes(Connection& conn,
                                        const Statement& statement,
                                        Params params, absl::CivilDay day,
                                        const std::vector<std::string>& symbols,
                                        const domain::KeysetBound& bound,
                                        absl::Time end, int limit);

// `page` as the statement's rows (a compacted page built as the rows
// PostgreSQL would have sent).
Result RowsOf(DayPage page);

// The columns of a page of one symbol's quotes.
enum class SymbolPageColumns {
  kQuotes,       // (observed_at, quote_data)
  kPricePoints,  // (observed_at, last_price, volume), priced quotes only
};

// A page of `symbol`'s quotes stamped in [start, end) after `after`,
// ascending, `limit` rows: `statement` reads it from the trading days
// TradingDayFrom(after) to TradingDayTo(end).
absl::StatusOr<Result> SymbolPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    const std::string& symbol, absl::Time start, absl::Time end,
    absl::Time after, int limit, SymbolPageColumns columns);

// The latest quote in [filter.not_before, filter.not_after] of each of
// filter.symbols: `statement` answers it from stock_quotes in rows of
// (nse_symbol, observed_at, quote_data) when `with_symbol`, else
// (observed_at, quote_data) of the one symbol. filter.latest_only is set.
absl::StatusOr<Result> LatestSeeingCompacted(Connection& conn,
                                             const Statement& statement,
                                             const Params& params,
                                             const CompactedFilter& filter,
                                             bool with_symbol);

// The prices of each (symbol, trading day) of `keys` stamped that day
// before `before`, ascending, from `loaded` (listed for those symbols and
// days up to `before`) into `found` (keys without any absent), as
// QuoteBatchRepository::PricesOfSymbolDays's statement gives them: no
// quote leaves PostgreSQL only to have three of its columns sent back.
// False, with nothing filled, when the statement must run: the row store
// holds quotes within those bounds.
bool PricesFromBatches(
    const CompactedBatches& loaded, const std::vector<domain::SymbolDay>& keys,
    absl::Time before,
    absl::flat_hash_map<domain::SymbolDay, std::vector<domain::PricePoint>>&
        found);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTED_READS_FAST_H_
