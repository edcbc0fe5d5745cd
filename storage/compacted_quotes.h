// Reads that see both stores of stock quotes: the row store (stock_quotes)
// and the compacted batches of closed trading days (stock_quote_batches,
// migration 0013; docs/architecture.md, "Compacted history").
//
// A read first loads the batches that meet what it asks for (by trading
// day, symbols and instants) and decodes them here. When there are none it
// runs its statement as it always did. Otherwise it runs the same statement
// with `stock_quotes` shadowed by a WITH query of that name: the row store
// (view stock_quote_rows) plus the decoded quotes, passed as parameters
// after the statement's own. The statement's SQL is unchanged, so its
// filters, order, limits and aggregates (and so its answer) are the same
// whichever store holds a quote. A quote in both (a later write to a
// compacted day) is read from the row store only: the newer write wins,
// as an upsert would have.
#ifndef MDC_STORAGE_COMPACTED_QUOTES_H_
#define MDC_STORAGE_COMPACTED_QUOTES_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/quote_batch_codec.h"
#include "storage/decoded_batch_cache.h"
#include "storage/pg.h"

namespace mdc::storage {

// One decoded compacted quote with its batch's keys.
struct CompactedQuote {
  std::string symbol;
  absl::CivilDay trading_day;
  domain::StoredQuote quote;
};

// Which compacted quotes a read needs: trading days [from, to], the
// symbols (all when none are given), instants [not_before, not_after]. The
// bounds may be wider than the statement's own (which filters again), never
// narrower: a batch is loaded when its range meets them, and only its
// quotes within them are passed on.
struct CompactedFilter {
  absl::CivilDay from;
  absl::CivilDay to;
  std::optional<std::vector<std::string>> symbols;
  std::optional<absl::Time> not_before;
  std::optional<absl::Time> not_after;
  // For a statement that reads only the latest quote of each symbol within
  // the bounds (as-of, cross-section): only that one is passed on. A row in
  // the row store at the same instant still replaces it.
  bool latest_only = false;
  // For a page in time order (a day's quotes after a keyset bound): when
  // above 0, only the batches needed to know the first `first_quotes`
  // quotes stamped after not_before, in order of their first instants: each
  // quote before the first instant of the batches left out is in those
  // taken, and they hold at least `first_quotes` quotes after not_before
  // and before it (or all batches are taken). A page of a whole day then
  // decodes the batches its quotes are in, not the rest of the day.
  int first_quotes = 0;
  // What of each quote the read needs. kPrices (no payloads: decoded in a
  // fraction of the time) only for reads that take the instants and prices
  // from the batches themselves; ExecSeeingLoadedQuotes refuses such batches.
  domain::QuoteBatchParts parts = domain::QuoteBatchParts::kWhole;
};

// One compacted batch meeting a filter, decoded (shared with the cache of
// decoded batches, storage/decoded_batch_cache.h).
struct CompactedBatch {
  std::string symbol;
  absl::CivilDay trading_day;
  DecodedBatch quotes;
  // As listed (LoadListedBatches; unset otherwise).
  BatchIdentity id;
};

// The batches meeting a filter (with latest_only: at most one per symbol,
// the one that can hold its latest quote), and whether the row store holds
// any quote within the filter's bounds.
struct CompactedBatches {
  std::vector<CompactedBatch> batches;
  bool row_store_has_rows = false;
  // With first_quotes: the first instant of the batches left out (every
  // quote before it is in `batches`); none when every batch was taken.
  std::optional<int64_t> left_out_from_us;
};

// The batches `filter` selects, decoded once and then kept in the cache.
// DataLoss when a batch cannot be decoded.
absl::StatusOr<CompactedBatches> LoadCompactedBatches(
    Connection& conn, const CompactedFilter& filter);

// One listed batch: what names its content, and its last instant.
struct ListedBatch {
  BatchIdentity id;
  int64_t last_observed_at_us = 0;
};

// The batches meeting a filter, without their bytes, and whether the row
// store holds any quote within its bounds: LoadCompactedBatches in two
// steps, so a reader paging through a day (storage/day_page_read_ahead.h)
// can list the day's batches once and load from that listing page after
// page, while it checks that the day's batches are the same.
struct BatchListing {
  std::vector<ListedBatch> batches;
  bool row_store_has_rows = false;
};
absl::StatusOr<BatchListing> ListCompactedBatches(
    Connection& conn, const CompactedFilter& filter);
// The batches of `listing` meeting `filter` (whose days and symbols are
// the listing's; its instants may be narrower), decoded as
// LoadCompactedBatches does; row_store_has_rows is the listing's. A batch
// `decoded_before` holds (an earlier load from the same listing) is taken
// from there first: a reader paging through a day of many symbols keeps the
// batches under way from one load to the next, where the cache of decoded
// batches, shared and bounded, may not.
absl::StatusOr<CompactedBatches> LoadListedBatches(
    Connection& conn, const BatchListing& listing,
    const CompactedFilter& filter,
    const CompactedBatches* decoded_before = nullptr);

// Each symbol's latest compacted quote within a latest_only filter's
// instants, decoding of each batch only that quote (domain::DecodeQuoteAt)
// unless the batch is decoded whole in the cache already: a cross-section
// of a thousand symbols meets a thousand batches, more than the cache
// holds, and needs one quote of each.
struct LatestCompactedQuotes {
  absl::flat_hash_map<std::string, domain::StoredQuote> quotes;
  bool row_store_has_rows = false;
  // False when a batch is not in time order (not as compaction writes
  // them): the caller reads the general way.
  bool in_order = true;
};
absl::StatusOr<LatestCompactedQuotes> LoadLatestCompactedQuotes(
    Connection& conn, const CompactedFilter& filter);

// The decoded quotes of the batches `filter` selects. DataLoss when a batch
// cannot be decoded.
absl::StatusOr<std::vector<CompactedQuote>> LoadCompactedQuotes(
    Connection& conn, const CompactedFilter& filter);

// The quotes of `loaded` within `filter`'s instants (with latest_only: each
// symbol's latest).
std::vector<CompactedQuote> QuotesWithin(const CompactedBatches& loaded,
                                         const CompactedFilter& filter);

// ExecSeeingCompactedQuotes with the batches already loaded.
absl::StatusOr<Result> ExecSeeingLoadedQuotes(Connection& conn,
                                              const Statement& statement,
                                              Params params,
                                              const CompactedBatches& loaded,
                                              const CompactedFilter& filter);

// Runs `statement` with `params`, seeing the compacted quotes `filter`
// selects as rows of stock_quotes (see the top of this file).
absl::StatusOr<Result> ExecSeeingCompactedQuotes(Connection& conn,
                                                 const Statement& statement,
                                                 Params params,
                                                 const CompactedFilter& filter);

// `statement` with `stock_quotes` shadowed by the union of the row store
// and the quotes AppendCompactedQuotes passes as its parameters from
// number `first_parameter` on (after the statement's own). Built once per
// statement; the same name with "_with_compacted" after it.
const Statement& WithCompactedQuotes(const Statement& statement,
                                     int first_parameter);

// One column of a table of quotes as its shadowing WITH query builds it from
// an array parameter: its name, the array's element type, and the
// expression reading it (empty: `c.<name>`).
struct ShadowColumn {
  const char* name;
  const char* array_type;
  const char* read = "";
};

// The WITH query that stands for `table` (its columns in the table's
// order): the row store (`rows_view`) plus the quotes passed as one array
// parameter per column, numbered from `first`, less those whose `key`
// (column names) is also in the row store: a quote also there is read from
// there only. Stock quotes (WithCompactedQuotes) and NIFTY quotes
// (storage/compacted_nifty.h) use it.
std::string ShadowingQueryOf(absl::string_view table,
                             absl::string_view rows_view,
                             const std::vector<ShadowColumn>& columns,
                             const std::vector<const char*>& key, int first);

// `statement` with `with_query()` (one item of a WITH list) in front of
// it, joining a WITH list it may have; named statement.name + `suffix`,
// built on first use and kept for the process. WithCompactedQuotes and
// the NIFTY quotes' sibling (storage/compacted_nifty.h) use it.
const Statement& WithQueryInFront(
    const Statement& statement, absl::string_view suffix,
    const std::function<std::string()>& with_query);

// Appends `quotes` as the parameters WithCompactedQuotes reads.
void AppendCompactedQuotes(const std::vector<CompactedQuote>& quotes,
                           Params& params);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTED_QUOTES_H_
