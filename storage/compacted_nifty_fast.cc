#include "storage/compacted_nifty_fast.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/compacted_selection.h"
#include "domain/nifty_batch_codec.h"
#include "storage/compacted_quotes.h"
#include "storage/decoded_batch_cache.h"
#include "storage/pg_binary.h"
#include "storage/synthesized_result.h"

namespace mdc::storage {
namespace {

using pg_binary::kByteaOid;
using pg_binary::kFloat8Oid;
using pg_binary::kTextOid;
using pg_binary::kTimestamptzOid;

// The batches of the trading days $1-$2 (without their bytes), and in the
// last column whether the row store holds any NIFTY quote of those days in
// [$3, $4]: when not, the decoded quotes alone answer the read.
#define MDC_NIFTY_BATCH_IDENTITY                                     \
  "trading_day, first_observed_at, last_observed_at, compacted_at, " \
  "min_seq, max_seq, row_count::int8"
#define MDC_NIFTY_ROW_STORE_HAS_ROWS                \
  "(SELECT EXISTS (SELECT 1 FROM nifty_quote_rows " \
  "WHERE trading_day BETWEEN $1 AND $2 "            \
  "AND observed_at >= $3 AND observed_at <= $4))"
// A page's: those meeting [$3, $4], in time order (a series' batches never
// overlap; checked as they are read).
constexpr Statement kListNiftyPageBatches{
    "compacted_nifty_fast_page_batches",
    "SELECT " MDC_NIFTY_BATCH_IDENTITY ", " MDC_NIFTY_ROW_STORE_HAS_ROWS
    " FROM nifty_quote_batches WHERE trading_day BETWEEN $1 AND $2 "
    "AND last_observed_at >= $3 AND first_observed_at <= $4 "
    "ORDER BY trading_day, first_observed_at"};
// The as-of's: the one batch that can hold the latest quote <= $4, the
// last starting at or before it (later ones start after it, earlier ones
// end before it starts). It holds one >= $3 when it ends at or after $3.
constexpr Statement kListNiftyLatestBatch{
    "compacted_nifty_fast_latest_batch",
    "SELECT " MDC_NIFTY_BATCH_IDENTITY ", " MDC_NIFTY_ROW_STORE_HAS_ROWS
    " FROM nifty_quote_batches WHERE trading_day BETWEEN $1 AND $2 "
    "AND first_observed_at <= $4 "
    "ORDER BY trading_day DESC, first_observed_at DESC LIMIT 1"};
// The bytes of one batch not in the cache.
constexpr Statement kFetchNiftyBatch{
    "compacted_nifty_fast_fetch",
    "SELECT " MDC_NIFTY_BATCH_IDENTITY
    ", columns FROM nifty_quote_batches "
    "WHERE trading_day = $1 AND first_observed_at = $2"};
#undef MDC_NIFTY_ROW_STORE_HAS_ROWS
#undef MDC_NIFTY_BATCH_IDENTITY

// A NIFTY listing has the stock listing's shape (storage/compacted_quotes.h):
// each batch's identity and last instant, and the row-store probe.
ListedBatch ListedNiftyAt(const Result& result, int row) {
  ListedBatch listed;
  listed.id.trading_day = result.Date(row, 0);
  listed.id.first_observed_at_us = absl::ToUnixMicros(result.Time(row, 1));
  listed.last_observed_at_us = absl::ToUnixMicros(result.Time(row, 2));
  listed.id.compacted_at_us = absl::ToUnixMicros(result.Time(row, 3));
  listed.id.min_seq = result.Int64(row, 4);
  listed.id.max_seq = result.Int64(row, 5);
  listed.id.row_count = result.Int64(row, 6);
  listed.id.table = BatchTable::kNiftyQuotes;
  return listed;
}

absl::StatusOr<BatchListing> ListNiftyBatches(
    Connection& conn, const Statement& listing,
    const CompactedNiftyFilter& filter) {
  auto result = conn.Exec(listing, Params()
                                       .Date(filter.from)
                                       .Date(filter.to)
                                       .Time(*filter.not_before)
                                       .Time(*filter.not_after));
  if (!result.ok()) return result.status();
  BatchListing listed;
  for (int row = 0; row < result->rows(); ++row) {
    if (row == 0) listed.row_store_has_rows = result->Bool(0, 7);
    listed.batches.push_back(ListedNiftyAt(*result, row));
  }
  return listed;
}

// The decoded quotes of the listed batch `id`, from the cache or fetched
// and decoded once; null when the batch changed or went since it was
// listed (its day compacted again or deleted: the caller reads the general
// way) or is not as compaction writes it (ascending, one day change each).
absl::StatusOr<DecodedBatch> DecodedNifty(Connection& conn,
                                          const BatchIdentity& id) {
  DecodedBatchCache& cache = DecodedBatchCache::Shared();
  DecodedBatch batch = cache.Find(id);
  if (batch == nullptr) {
    auto fetched =
        conn.Exec(kFetchNiftyBatch,
                  Params()
                      .Date(id.trading_day)
                      .Time(absl::FromUnixMicros(id.first_observed_at_us)));
    if (!fetched.ok()) return fetched.status();
    if (fetched->rows() == 0 || !(ListedNiftyAt(*fetched, 0).id == id)) {
      return DecodedBatch();
    }
    auto decoded = domain::DecodeNiftyBatch(fetched->Bytes(0, 7));
    if (!decoded.ok()) return decoded.status();
    auto quotes = std::make_shared<DecodedQuotes>();
    quotes->quotes.reserve(decoded->size());
    quotes->day_change_perc.reserve(decoded->size());
    for (domain::StoredNiftyQuote& nifty : *decoded) {
      quotes->quotes.push_back(std::move(nifty.quote));
      quotes->day_change_perc.push_back(nifty.day_change_perc);
    }
    quotes->instants = domain::InstantsOf(quotes->quotes);
    quotes->ascending = domain::IsAscending(quotes->quotes);
    cache.Put(id, quotes);
    batch = std::move(quotes);
  }
  if (!batch->ascending ||
      batch->day_change_perc.size() != batch->quotes.size()) {
    return DecodedBatch();
  }
  return batch;
}

// One picked quote: its batch's quotes and its place there.
struct PickedNifty {
  const DecodedQuotes* batch;
  size_t index;
};

void AddNiftyRow(SynthesizedResult& result, const PickedNifty& picked,
                 NiftyPageColumns columns) {
  const domain::StoredQuote& quote = picked.batch->quotes[picked.index];
  const double day_change = picked.batch->day_change_perc[picked.index];
  result.AddRow();
  result.SetTime(0, absl::FromUnixMicros(quote.observed_at_us));
  switch (columns) {
    case NiftyPageColumns::kQuotes:
      result.SetDouble(1, day_change);
      result.SetBytes(2, quote.quote_data);
      break;
    case NiftyPageColumns::kPricePoints:
      result.SetDouble(1, *quote.last_price);
      result.SetOptionalDouble(2, quote.volume);
      break;
    case NiftyPageColumns::kReplay:
      result.SetBytes(1, "");
      result.SetBytes(2, "");
      result.SetBytes(3, quote.quote_data);
      result.SetDouble(4, day_change);
      break;
  }
}

std::vector<Oid> NiftyColumnTypes(NiftyPageColumns columns) {
  switch (columns) {
    case NiftyPageColumns::kQuotes:
      return {kTimestamptzOid, kFloat8Oid, kByteaOid};
    case NiftyPageColumns::kPricePoints:
      return {kTimestamptzOid, kFloat8Oid, kFloat8Oid};
    case NiftyPageColumns::kReplay:
      break;
  }
  return {kTimestamptzOid, kTextOid, kTextOid, kByteaOid, kFloat8Oid};
}

// A page over both stores (storage/compacted_nifty.h). A priced page gets
// every compacted quote of its bounds, not the first limit + 1: a row
// replacing a priced compacted quote may have no price itself, and then
// the page needs one compacted quote more for each.
absl::StatusOr<Result> PageOverBothStores(Connection& conn,
                                          const Statement& statement,
                                          Params params,
                                          CompactedNiftyFilter filter) {
  if (filter.priced_only) filter.first_count = 0;
  return ExecSeeingCompactedNifty(conn, statement, std::move(params), filter);
}

}  // namespace

absl::StatusOr<Result> NiftyPageSeeingCompacted(
    Connection& conn, const Statement& statement, Params params,
    const CompactedNiftyFilter& filter, absl::Time start, absl::Time after,
    absl::Time end, int limit, NiftyPageColumns columns) {
  if (!filter.not_before || !filter.not_after || limit < 0) {
    return PageOverBothStores(conn, statement, std::move(params), filter);
  }
  auto listed = ListNiftyBatches(conn, kListNiftyPageBatches, filter);
  if (!listed.ok()) return listed.status();
  if (listed->batches.empty()) return conn.Exec(statement, params);
  if (listed->row_store_has_rows) {
    return PageOverBothStores(conn, statement, std::move(params), filter);
  }
  // After `after` and from `start` on: after the later of the two bounds.
  const int64_t after_us =
      std::max(absl::ToUnixMicros(after), absl::ToUnixMicros(start) - 1);
  const int64_t end_us = absl::ToUnixMicros(end);
  const bool priced_only = columns == NiftyPageColumns::kPricePoints;
  const size_t wanted = static_cast<size_t>(limit);
  std::vector<DecodedBatch> held;
  std::vector<PickedNifty> picked;
  int64_t previous_last_us = INT64_MIN;
  for (const ListedBatch& listed_batch : listed->batches) {
    if (picked.size() >= wanted) break;
    // Batches in time order, none overlapping the one before: else the
    // order of the quotes is not the batches' (not as compaction writes
    // them), and the statement runs the general way.
    if (listed_batch.id.first_observed_at_us <= previous_last_us) {
      return PageOverBothStores(conn, statement, std::move(params), filter);
    }
    previous_last_us = listed_batch.last_observed_at_us;
    if (listed_batch.id.first_observed_at_us >= end_us) break;
    if (listed_batch.last_observed_at_us <= after_us) continue;
    auto decoded = DecodedNifty(conn, listed_batch.id);
    if (!decoded.ok()) return decoded.status();
    if (*decoded == nullptr) {
      return PageOverBothStores(conn, statement, std::move(params), filter);
    }
    const std::vector<domain::StoredQuote>& quotes = (*decoded)->quotes;
    auto first =
        std::upper_bound(quotes.begin(), quotes.end(), after_us,
                         [](int64_t at, const domain::StoredQuote& quote) {
                           return at < quote.observed_at_us;
                         });
    for (auto it = first; it != quotes.end() && picked.size() < wanted; ++it) {
      if (it->observed_at_us >= end_us) break;
      if (priced_only && !it->last_price.has_value()) continue;
      picked.push_back(
          {decoded->get(), static_cast<size_t>(it - quotes.begin())});
    }
    held.push_back(*std::move(decoded));
  }
  SynthesizedResult page(NiftyColumnTypes(columns));
  for (const PickedNifty& quote : picked) AddNiftyRow(page, quote, columns);
  return std::move(page).Take();
}

absl::StatusOr<Result> NiftyLatestSeeingCompacted(
    Connection& conn, const Statement& statement, const Params& params,
    const CompactedNiftyFilter& filter) {
  if (!filter.not_before || !filter.not_after) {
    return ExecSeeingCompactedNifty(conn, statement, params, filter);
  }
  auto listed = ListNiftyBatches(conn, kListNiftyLatestBatch, filter);
  if (!listed.ok()) return listed.status();
  if (listed->batches.empty()) return conn.Exec(statement, params);
  const ListedBatch& batch = listed->batches.front();
  const int64_t not_before_us = absl::ToUnixMicros(*filter.not_before);
  const int64_t at_us = absl::ToUnixMicros(*filter.not_after);
  // The latest compacted quote within the bounds, if any.
  DecodedBatch held;
  std::optional<PickedNifty> latest;
  if (batch.last_observed_at_us >= not_before_us) {
    auto decoded = DecodedNifty(conn, batch.id);
    if (!decoded.ok()) return decoded.status();
    if (*decoded == nullptr) {
      return ExecSeeingCompactedNifty(conn, statement, params, filter);
    }
    held = *std::move(decoded);
    static const std::string kNoSymbol;
    if (const domain::StoredQuote* found = domain::LatestWithin(
            domain::QuoteRun{&kNoSymbol, &held->quotes, &held->instants},
            not_before_us, at_us)) {
      latest = PickedNifty{held.get(),
                           static_cast<size_t>(found - held->quotes.data())};
    }
  }
  auto only_compacted = [&latest] {
    SynthesizedResult answer(NiftyColumnTypes(NiftyPageColumns::kQuotes));
    if (latest) AddNiftyRow(answer, *latest, NiftyPageColumns::kQuotes);
    return std::move(answer).Take();
  };
  // Nothing in the row store within the bounds: no statement to run.
  if (!listed->row_store_has_rows) return only_compacted();
  // The row store's answer (nifty_quotes itself is the row store); the row
  // wins at the same instant: it replaced the compacted quote.
  auto rows = conn.Exec(statement, params);
  if (!rows.ok() || !latest) return rows;
  if (rows->rows() > 0 &&
      absl::ToUnixMicros(rows->Time(0, 0)) >=
          latest->batch->quotes[latest->index].observed_at_us) {
    return rows;
  }
  return only_compacted();
}

}  // namespace mdc::storage
