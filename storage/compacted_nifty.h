// Reads that see both stores of NIFTY quotes: the row store (nifty_quotes)
// and the compacted batches of closed trading days (nifty_quote_batches,
// migration 0015; docs/architecture.md, "Compacted history"). The same
// approach as the stock quotes' (storage/compacted_quotes.h): a read loads
// and decodes the batches that meet what it asks for; when there are any
// it runs its own statement with `nifty_quotes` shadowed by a WITH query of
// that name (the row store view nifty_quote_rows plus the decoded quotes,
// passed as parameters after the statement's own). A quote in both stores
// (a later write to a compacted day) is read from the row store only.
#ifndef MDC_STORAGE_COMPACTED_NIFTY_H_
#define MDC_STORAGE_COMPACTED_NIFTY_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/nifty_batch_codec.h"
#include "storage/pg.h"

namespace mdc::storage {

// One decoded compacted NIFTY quote with its batch's day.
struct CompactedNifty {
  absl::CivilDay trading_day;
  domain::StoredNiftyQuote nifty;
};

// Which compacted NIFTY quotes a read needs: trading days [from, to],
// instants [not_before, not_after]. The bounds may be wider than the
// statement's own (which filters again), never narrower.
struct CompactedNiftyFilter {
  absl::CivilDay from;
  absl::CivilDay to;
  std::optional<absl::Time> not_before;
  std::optional<absl::Time> not_after;
  // For a statement that reads only the latest quote within the bounds
  // (as-of): only that one is passed on. A row in the row store at the
  // same instant still replaces it.
  bool latest_only = false;
  // For a statement that reads the first `first_count` quotes within the
  // bounds, ascending by instant (a keyset page): only the first that many
  // are passed on (a row at the same instant replaces one of them, and a
  // row store quote between them only pushes later ones off the page), so
  // a page decodes the few batches it needs. 0: every quote.
  int first_count = 0;
  // For a statement that reads only quotes with a last price: no others
  // are passed on (nor counted in first_count).
  bool priced_only = false;
};

// The decoded quotes of the batches `filter` selects, ascending by instant
// (the batches of the one series never overlap: a day's are cut from its
// quotes in order, and each day's instants follow the day before's).
// DataLoss when a batch cannot be decoded.
absl::StatusOr<std::vector<CompactedNifty>> LoadCompactedNifty(
    Connection& conn, const CompactedNiftyFilter& filter);

// Runs `statement` with `params`, seeing the compacted NIFTY quotes
// `filter` selects as rows of nifty_quotes.
absl::StatusOr<Result> ExecSeeingCompactedNifty(
    Connection& conn, const Statement& statement, Params params,
    const CompactedNiftyFilter& filter);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COMPACTED_NIFTY_H_
