#include "storage/compacted_quotes.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "domain/compacted_selection.h"
#include "storage/parallel_work.h"
#include "storage/pg_binary.h"

namespace mdc::storage {
namespace {

// Batches a thread takes at least in a decode of whole batches (or of
// their prices): a batch of a thousand full quotes is a millisecond's work.
constexpr size_t kDecodedBatchesPerWorker = 8;

// Batches a thread takes at least in a latest-quotes read: a thread costs
// tens of microseconds to start, a batch's quote some.
constexpr size_t kLatestBatchesPerWorker = 64;

// The batches meeting a CompactedFilter, without their bytes (those come
// from the cache of decoded batches, or kFetchColumns): $1-$2 trading days,
// $3 symbols, $4-$5 instants (NULL: no condition). The last column says
// whether the row store holds any quote within the same bounds: when not,
// a read can answer from the decoded quotes alone. Planned each time so
// the NULL conditions fold away and both scans use their indexes.
#define MDC_BATCH_IDENTITY                                              \
  "nse_symbol, trading_day, first_observed_at, compacted_at, min_seq, " \
  "max_seq, row_count, last_observed_at"
#define MDC_BATCHES_MEETING                                  \
  "WHERE trading_day BETWEEN $1 AND $2 "                     \
  "AND ($3::text[] IS NULL OR nse_symbol = ANY($3)) "        \
  "AND ($4::timestamptz IS NULL OR last_observed_at >= $4) " \
  "AND ($5::timestamptz IS NULL OR first_observed_at <= $5) "
#define MDC_ROW_STORE_HAS_ROWS                          \
  "(SELECT EXISTS (SELECT 1 FROM stock_quote_rows "     \
  "WHERE trading_day BETWEEN $1 AND $2 "                \
  "AND ($3::text[] IS NULL OR nse_symbol = ANY($3)) "   \
  "AND ($4::timestamptz IS NULL OR observed_at >= $4) " \
  "AND ($5::timestamptz IS NULL OR observed_at <= $5)))"
constexpr Statement kLoadBatches{
    "compacted_quotes_batches",
    "SELECT " MDC_BATCH_IDENTITY ", " MDC_ROW_STORE_HAS_ROWS
    " FROM stock_quote_batches " MDC_BATCHES_MEETING,
    /*merged=*/nullptr, /*plan_each_time=*/true};
// For latest_only: per symbol only the batch that can hold its latest
// quote <= $5. The batches of a symbol do not overlap in time (a day's are
// cut from its quotes in time order, days follow each other), so that is
// the one with the greatest (trading_day, first_observed_at) starting at or
// before $5; it holds a quote in [$4, $5] when it ends at or after $4, and
// then no earlier batch holds a later one.
constexpr Statement kLoadLatestBatches{
    "compacted_quotes_latest_batches",
    "SELECT * FROM (SELECT DISTINCT ON (nse_symbol) " MDC_BATCH_IDENTITY
    ", " MDC_ROW_STORE_HAS_ROWS
    " FROM stock_quote_batches WHERE trading_day BETWEEN $1 AND $2 "
    "AND ($3::text[] IS NULL OR nse_symbol = ANY($3)) "
    "AND ($5::timestamptz IS NULL OR first_observed_at <= $5) "
    "ORDER BY nse_symbol, trading_day DESC, first_observed_at DESC) b "
    "WHERE $4::timestamptz IS NULL OR last_observed_at >= $4",
    /*merged=*/nullptr, /*plan_each_time=*/true};
// The same for the common shapes, with every bound given ($3 unused when
// no symbols are): planned once, as prepared statements are, not each time
// (planning costs more than the scan: a replay or an export lists a page's
// batches for each of its pages).
#define MDC_BATCHES_WITHIN(symbols)              \
  "WHERE trading_day BETWEEN $1 AND $2 " symbols \
  "AND last_observed_at >= $4 AND first_observed_at <= $5 "
#define MDC_ROW_STORE_HAS_ROWS_WITHIN               \
  "(SELECT EXISTS (SELECT 1 FROM stock_quote_rows " \
  "WHERE trading_day BETWEEN $1 AND $2 "            \
  "AND observed_at >= $4 AND observed_at <= $5))"
// Of given symbols: one probe of the row store's primary key (nse_symbol,
// observed_at, trading_day) per symbol. `nse_symbol = ANY($3)` beside a
// range of trading days let the generic plan scan the (trading_day,
// observed_at) index over every day of the range, the days next to a
// compacted one included: a read of yesterday's compacted candles paid a
// scan of today's row store, symbol after symbol.
#define MDC_ROW_STORE_HAS_ROWS_OF_SYMBOLS_WITHIN                       \
  "(SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT unnest($3::text[]) " \
  "AS symbol) s CROSS JOIN LATERAL (SELECT 1 FROM stock_quote_rows "   \
  "WHERE nse_symbol = s.symbol AND trading_day BETWEEN $1 AND $2 "     \
  "AND observed_at >= $4 AND observed_at <= $5 LIMIT 1) r))"
constexpr Statement kLoadBatchesWithin{
    "compacted_quotes_batches_within",
    "SELECT " MDC_BATCH_IDENTITY ", " MDC_ROW_STORE_HAS_ROWS_WITHIN
    " FROM stock_quote_batches " MDC_BATCHES_WITHIN(
        "") "AND $3::text[] IS NULL"};
// Of given symbols: a descent of the primary key (nse_symbol, trading_day,
// first_observed_at) per symbol, not a scan of the day's batches filtered
// by symbol (what a generic plan of `nse_symbol = ANY($3)`, or of the join
// pulled up, chose: OFFSET 0 keeps the join a loop of descents).
#define MDC_EACH_SYMBOL                                     \
  " FROM (SELECT DISTINCT unnest($3::text[]) AS symbol) s " \
  "CROSS JOIN LATERAL (SELECT * FROM stock_quote_batches "  \
  "WHERE nse_symbol = s.symbol AND trading_day BETWEEN $1 AND $2 "
constexpr Statement kLoadBatchesOfSymbolsWithin{
    "compacted_quotes_batches_of_symbols_within",
    "SELECT " MDC_BATCH_IDENTITY
    ", " MDC_ROW_STORE_HAS_ROWS_OF_SYMBOLS_WITHIN MDC_EACH_SYMBOL
    "AND last_observed_at >= $4 AND first_observed_at <= $5 OFFSET 0) b"};
constexpr Statement kLoadLatestBatchesOfSymbols{
    "compacted_quotes_latest_batches_of_symbols",
    "SELECT " MDC_BATCH_IDENTITY
    ", " MDC_ROW_STORE_HAS_ROWS_OF_SYMBOLS_WITHIN MDC_EACH_SYMBOL
    "AND first_observed_at <= $5 "
    "ORDER BY trading_day DESC, first_observed_at DESC LIMIT 1) b "
    "WHERE last_observed_at >= $4"};

// The statement listing the batches `filter` selects.
const Statement& ListingOf(const CompactedFilter& filter) {
  const bool bounded = filter.not_before && filter.not_after;
  if (!bounded) return filter.latest_only ? kLoadLatestBatches : kLoadBatches;
  if (filter.latest_only) {
    return filter.symbols ? kLoadLatestBatchesOfSymbols : kLoadLatestBatches;
  }
  return filter.symbols ? kLoadBatchesOfSymbolsWithin : kLoadBatchesWithin;
}

// The bytes of the batches not in the cache, by key.
constexpr Statement kFetchColumns{
    "compacted_quotes_fetch_columns",
    "SELECT b.nse_symbol, b.trading_day, b.first_observed_at, b.compacted_at, "
    "b.min_seq, b.max_seq, b.row_count, b.columns "
    "FROM unnest($1::text[], $2::date[], $3::timestamptz[]) "
    "AS k(nse_symbol, trading_day, first_observed_at) "
    "JOIN stock_quote_batches b ON b.nse_symbol = k.nse_symbol "
    "AND b.trading_day = k.trading_day "
    "AND b.first_observed_at = k.first_observed_at"};

BatchIdentity IdentityAt(const Result& result, int row) {
  return BatchIdentity{result.String(row, 0),
                       result.Date(row, 1),
                       absl::ToUnixMicros(result.Time(row, 2)),
                       absl::ToUnixMicros(result.Time(row, 3)),
                       result.Int64(row, 4),
                       result.Int64(row, 5),
                       result.Int64(row, 6)};
}

// The stored bytes (column 7) of the batches `ids` name, by key.
absl::StatusOr<Result> FetchBatches(Connection& conn,
                                    const std::vector<BatchIdentity>& ids) {
  std::vector<std::string> symbols;
  std::vector<absl::CivilDay> days;
  std::vector<absl::Time> firsts;
  for (const BatchIdentity& id : ids) {
    symbols.push_back(id.symbol);
    days.push_back(id.trading_day);
    firsts.push_back(absl::FromUnixMicros(id.first_observed_at_us));
  }
  return conn.Exec(
      kFetchColumns,
      Params().TextArray(symbols).DateArray(days).TimeArray(firsts));
}

// `sql` with the WITH query `shadow` in front, joining a WITH list it may
// have.
std::string ShadowedSql(absl::string_view sql, const std::string& shadow) {
  if (absl::StartsWith(sql, "WITH RECURSIVE ")) {
    return absl::StrCat("WITH RECURSIVE ", shadow, ", ",
                        sql.substr(sizeof("WITH RECURSIVE ") - 1));
  }
  if (absl::StartsWith(sql, "WITH ")) {
    return absl::StrCat("WITH ", shadow, ", ", sql.substr(sizeof("WITH ") - 1));
  }
  return absl::StrCat("WITH ", shadow, " ", sql);
}

// The shadowed statements, built on first use and kept for the process:
// a Statement holds pointers to its name and SQL.
struct ShadowedStatement {
  std::string name;
  std::string sql;
  Statement statement;
};

}  // namespace

namespace {

// Decodes (or finds in the cache) the batches of `loaded` at `places` whose
// quotes are not set yet; `ids` are the listed identities of every batch.
absl::Status FillBatches(
    Connection& conn, const std::vector<BatchIdentity>& ids,
    const std::vector<size_t>& places, domain::QuoteBatchParts parts,
    const absl::flat_hash_map<BatchIdentity, DecodedBatch>& decoded_before,
    CompactedBatches& loaded) {
  DecodedBatchCache& cache = DecodedBatchCache::Shared();
  // The batches not in the cache, and where they go.
  std::vector<BatchIdentity> missing;
  absl::flat_hash_map<BatchIdentity, size_t> missing_at;
  for (size_t place : places) {
    if (loaded.batches[place].quotes != nullptr) continue;
    BatchIdentity id = ids[place];
    if (auto kept = decoded_before.find(id);
        kept != decoded_before.end() &&
        (kept->second->parts == parts ||
         kept->second->parts == domain::QuoteBatchParts::kWhole)) {
      loaded.batches[place].quotes = kept->second;
      continue;
    }
    // A whole decode serves any read.
    loaded.batches[place].quotes = cache.Find(id);
    id.parts = parts;
    if (loaded.batches[place].quotes == nullptr &&
        parts != domain::QuoteBatchParts::kWhole) {
      loaded.batches[place].quotes = cache.Find(id);
    }
    if (loaded.batches[place].quotes == nullptr) {
      missing.push_back(id);
      missing_at.emplace(id, place);
    }
  }
  if (missing.empty()) return absl::OkStatus();
  auto fetched = FetchBatches(conn, missing);
  if (!fetched.ok()) return fetched.status();
  // The fetched batches decoded side by side, then kept in order.
  std::vector<absl::StatusOr<std::vector<domain::StoredQuote>>> decodes(
      fetched->rows());
  InParallel(decodes.size(), kDecodedBatchesPerWorker, ReadWorkers(),
             [&](size_t row) {
               decodes[row] = domain::DecodeQuoteBatch(
                   fetched->Bytes(static_cast<int>(row), 7), parts);
             });
  for (int row = 0; row < fetched->rows(); ++row) {
    BatchIdentity id = IdentityAt(*fetched, row);
    id.parts = parts;
    absl::StatusOr<std::vector<domain::StoredQuote>>& decoded = decodes[row];
    if (!decoded.ok()) return decoded.status();
    auto quotes = std::make_shared<DecodedQuotes>();
    quotes->parts = parts;
    quotes->quotes = *std::move(decoded);
    quotes->instants = domain::InstantsOf(quotes->quotes);
    quotes->ascending = domain::IsAscending(quotes->quotes);
    cache.Put(id, quotes);
    // A batch compacted again between the two statements is another
    // identity: its newer content stands in for the listed one.
    auto place = missing_at.find(id);
    if (place != missing_at.end()) {
      loaded.batches[place->second].quotes = std::move(quotes);
      continue;
    }
    for (const auto& [listed_id, at] : missing_at) {
      CompactedBatch& batch = loaded.batches[at];
      if (batch.quotes == nullptr && batch.symbol == id.symbol &&
          batch.trading_day == id.trading_day) {
        batch.quotes = quotes;
        break;
      }
    }
  }
  return absl::OkStatus();
}

// The quotes of `batch` stamped in (after_us, before_us); all of them when
// its quotes are not in order (then the reader takes every batch).
int64_t QuotesBetween(const CompactedBatch& batch, int64_t after_us,
                      int64_t before_us) {
  const std::vector<int64_t>& instants = batch.quotes->instants;
  if (!batch.quotes->ascending) return INT64_MIN;
  return std::lower_bound(instants.begin(), instants.end(), before_us) -
         std::upper_bound(instants.begin(), instants.end(), after_us);
}

}  // namespace

absl::StatusOr<BatchListing> ListCompactedBatches(
    Connection& conn, const CompactedFilter& filter) {
  Params params;
  params.Date(filter.from).Date(filter.to);
  if (filter.symbols) {
    params.TextArray(*filter.symbols);
  } else {
    params.Null(pg_binary::kTextArrayOid);
  }
  for (const auto& bound : {filter.not_before, filter.not_after}) {
    if (bound) {
      params.Time(*bound);
    } else {
      params.Null(pg_binary::kTimestamptzOid);
    }
  }
  auto listed = conn.Exec(ListingOf(filter), params);
  if (!listed.ok()) return listed.status();
  BatchListing listing;
  const int has_rows_column = listed->columns() - 1;
  listing.batches.reserve(listed->rows());
  for (int row = 0; row < listed->rows(); ++row) {
    if (row == 0) listing.row_store_has_rows = listed->Bool(0, has_rows_column);
    listing.batches.push_back(
        {IdentityAt(*listed, row), absl::ToUnixMicros(listed->Time(row, 7))});
  }
  // In order of first instants, as a page of a day takes them.
  std::stable_sort(listing.batches.begin(), listing.batches.end(),
                   [](const ListedBatch& a, const ListedBatch& b) {
                     return a.id.first_observed_at_us <
                            b.id.first_observed_at_us;
                   });
  return listing;
}

absl::StatusOr<CompactedBatches> LoadCompactedBatches(
    Connection& conn, const CompactedFilter& filter) {
  auto listing = ListCompactedBatches(conn, filter);
  if (!listing.ok()) return listing.status();
  return LoadListedBatches(conn, *listing, filter);
}

absl::StatusOr<CompactedBatches> LoadListedBatches(
    Connection& conn, const BatchListing& listing,
    const CompactedFilter& filter, const CompactedBatches* decoded_before) {
  absl::flat_hash_map<BatchIdentity, DecodedBatch> before;
  if (decoded_before != nullptr) {
    for (const CompactedBatch& batch : decoded_before->batches) {
      before.emplace(batch.id, batch.quotes);
    }
  }
  CompactedBatches loaded;
  loaded.row_store_has_rows = listing.row_store_has_rows;
  // The listed batches within the filter's instants (all of a listing made
  // for it; a listing kept from an earlier bound holds some before it).
  const int64_t not_before_us =
      filter.not_before ? absl::ToUnixMicros(*filter.not_before) : INT64_MIN;
  const int64_t not_after_us =
      filter.not_after ? absl::ToUnixMicros(*filter.not_after) : INT64_MAX;
  std::vector<BatchIdentity> ids;
  ids.reserve(listing.batches.size());
  for (const ListedBatch& listed : listing.batches) {
    if (listed.last_observed_at_us < not_before_us ||
        listed.id.first_observed_at_us > not_after_us) {
      continue;
    }
    ids.push_back(listed.id);
    loaded.batches.push_back(CompactedBatch{
        listed.id.symbol, listed.id.trading_day, nullptr, listed.id});
  }
  std::vector<size_t> order(ids.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  size_t taken = order.size();
  // ids are in the listing's order: by first instant.
  if (filter.first_quotes > 0 && filter.not_before && !order.empty()) {
    // In order of first instants (the listing's), more batches at a time
    // until the ones taken hold enough quotes before the first instant of
    // the rest.
    const int64_t after_us = absl::ToUnixMicros(*filter.not_before);
    taken = 0;
    // At least those begun by the bound: each may hold the next quote.
    while (taken < order.size() &&
           ids[order[taken]].first_observed_at_us <= after_us) {
      ++taken;
    }
    size_t step = 16;
    while (true) {
      taken = std::min(order.size(), taken + step);
      step *= 2;
      std::vector<size_t> places(order.begin(), order.begin() + taken);
      absl::Status filled =
          FillBatches(conn, ids, places, filter.parts, before, loaded);
      if (!filled.ok()) return filled;
      if (taken == order.size()) break;
      const int64_t before_us = ids[order[taken]].first_observed_at_us;
      int64_t known = 0;
      bool in_order = true;
      for (size_t place : places) {
        const CompactedBatch& batch = loaded.batches[place];
        if (batch.quotes == nullptr) continue;  // gone meanwhile
        const int64_t between = QuotesBetween(batch, after_us, before_us);
        if (between < 0) in_order = false;
        if (between > 0) known += between;
      }
      if (!in_order) {
        taken = order.size();  // the reader takes the general way
        continue;
      }
      if (known >= filter.first_quotes) {
        loaded.left_out_from_us = before_us;
        break;
      }
    }
  } else {
    absl::Status filled =
        FillBatches(conn, ids, order, filter.parts, before, loaded);
    if (!filled.ok()) return filled;
  }
  // Batches gone meanwhile (their day deleted or compacted again), and
  // those left out.
  loaded.batches.erase(
      std::remove_if(
          loaded.batches.begin(), loaded.batches.end(),
          [](const CompactedBatch& batch) { return batch.quotes == nullptr; }),
      loaded.batches.end());
  return loaded;
}

namespace {

// One listed batch of a latest-quotes read: decoded whole in the cache, or
// its stored bytes; then the latest of its quotes within the bounds.
struct LatestOfBatch {
  std::string symbol;
  DecodedBatch whole;
  DecodedBatch bytes;  // compressed
  absl::Status status;
  bool in_order = true;
  std::optional<domain::StoredQuote> quote;
};

// The latest quote of `batch` in [not_before_us, at_us], when its quotes
// are in time order.
void FindLatestOfBatch(int64_t not_before_us, int64_t at_us,
                       LatestOfBatch& batch) {
  // The place of the latest quote among `instants` in time order.
  auto latest_place = [&](const std::vector<int64_t>& instants) {
    const size_t after = static_cast<size_t>(
        std::upper_bound(instants.begin(), instants.end(), at_us) -
        instants.begin());
    return after == 0 || instants[after - 1] < not_before_us
               ? std::optional<size_t>()
               : std::optional<size_t>(after - 1);
  };
  if (batch.whole != nullptr) {
    if (!batch.whole->ascending) {
      batch.in_order = false;
      return;
    }
    if (auto at = latest_place(batch.whole->instants)) {
      batch.quote = batch.whole->quotes[*at];
    }
    return;
  }
  // The stored bytes: the prices frame decoded, then the one quote.
  const absl::string_view bytes = batch.bytes->compressed;
  auto prices =
      domain::DecodeQuoteBatch(bytes, domain::QuoteBatchParts::kPrices);
  if (!prices.ok()) {
    batch.status = prices.status();
    return;
  }
  if (!domain::IsAscending(*prices)) {
    batch.in_order = false;
    return;
  }
  const auto at = latest_place(domain::InstantsOf(*prices));
  if (!at) return;
  auto quote = domain::DecodeQuoteAt(bytes, *std::move(prices), *at);
  if (!quote.ok()) {
    batch.status = quote.status();
    return;
  }
  batch.quote = *std::move(quote);
}

}  // namespace

absl::StatusOr<LatestCompactedQuotes> LoadLatestCompactedQuotes(
    Connection& conn, const CompactedFilter& filter) {
  auto listing = ListCompactedBatches(conn, filter);
  if (!listing.ok()) return listing.status();
  LatestCompactedQuotes latest;
  latest.row_store_has_rows = listing->row_store_has_rows;
  const int64_t not_before_us =
      filter.not_before ? absl::ToUnixMicros(*filter.not_before) : INT64_MIN;
  const int64_t at_us =
      filter.not_after ? absl::ToUnixMicros(*filter.not_after) : INT64_MAX;
  // Each listed batch from the cache (decoded whole, or its stored bytes),
  // the others' bytes fetched and kept there.
  DecodedBatchCache& cache = DecodedBatchCache::Shared();
  std::vector<LatestOfBatch> batches(listing->batches.size());
  std::vector<BatchIdentity> missing;
  for (size_t i = 0; i < batches.size(); ++i) {
    const BatchIdentity& id = listing->batches[i].id;
    batches[i].symbol = id.symbol;
    batches[i].whole = cache.Find(id);
    if (batches[i].whole != nullptr) continue;
    BatchIdentity bytes_id = id;
    bytes_id.compressed = true;
    batches[i].bytes = cache.Find(bytes_id);
    if (batches[i].bytes == nullptr) missing.push_back(id);
  }
  if (!missing.empty()) {
    auto fetched = FetchBatches(conn, missing);
    if (!fetched.ok()) return fetched.status();
    // A batch compacted again since the listing is another identity: it
    // stands in for the listed one, as a batch of the same symbol.
    const size_t listed = batches.size();
    batches.resize(listed + fetched->rows());
    for (int row = 0; row < fetched->rows(); ++row) {
      BatchIdentity bytes_id = IdentityAt(*fetched, row);
      bytes_id.compressed = true;
      auto kept = std::make_shared<DecodedQuotes>();
      kept->compressed = std::string(fetched->Bytes(row, 7));
      cache.Put(bytes_id, kept);
      batches[listed + row].symbol = bytes_id.symbol;
      batches[listed + row].bytes = std::move(kept);
    }
  }
  // The latest quote of each batch, the batches decoded side by side.
  std::vector<LatestOfBatch*> to_read;
  for (LatestOfBatch& batch : batches) {
    if (batch.whole != nullptr || batch.bytes != nullptr) {
      to_read.push_back(&batch);
    }
  }
  InParallel(
      to_read.size(), kLatestBatchesPerWorker, ReadWorkers(),
      [&](size_t i) { FindLatestOfBatch(not_before_us, at_us, *to_read[i]); });
  for (LatestOfBatch* batch : to_read) {
    if (!batch->status.ok()) return batch->status;
    if (!batch->in_order) {
      latest.in_order = false;
      return latest;
    }
    if (!batch->quote) continue;
    auto [place, added] =
        latest.quotes.try_emplace(batch->symbol, *batch->quote);
    if (!added && batch->quote->observed_at_us > place->second.observed_at_us) {
      place->second = *std::move(batch->quote);
    }
  }
  return latest;
}

absl::StatusOr<std::vector<CompactedQuote>> LoadCompactedQuotes(
    Connection& conn, const CompactedFilter& filter) {
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  return QuotesWithin(*loaded, filter);
}

std::vector<CompactedQuote> QuotesWithin(const CompactedBatches& loaded,
                                         const CompactedFilter& filter) {
  const int64_t first_us =
      filter.not_before ? absl::ToUnixMicros(*filter.not_before) : INT64_MIN;
  const int64_t last_us =
      filter.not_after ? absl::ToUnixMicros(*filter.not_after) : INT64_MAX;
  std::vector<CompactedQuote> quotes;
  // With latest_only: the place in `quotes` of each symbol's latest.
  std::map<std::string, size_t> latest;
  for (const CompactedBatch& batch : loaded.batches) {
    for (const domain::StoredQuote& quote : batch.quotes->quotes) {
      if (quote.observed_at_us < first_us || quote.observed_at_us > last_us) {
        continue;
      }
      if (!filter.latest_only) {
        quotes.push_back({batch.symbol, batch.trading_day, quote});
        continue;
      }
      auto [place, added] = latest.try_emplace(batch.symbol, quotes.size());
      if (added) {
        quotes.push_back({batch.symbol, batch.trading_day, quote});
      } else if (quote.observed_at_us >
                 quotes[place->second].quote.observed_at_us) {
        quotes[place->second] = {batch.symbol, batch.trading_day, quote};
      }
    }
  }
  return quotes;
}

const Statement& WithQueryInFront(
    const Statement& statement, absl::string_view suffix,
    const std::function<std::string()>& with_query) {
  static absl::Mutex mutex(absl::kConstInit);
  static auto* built =
      new std::map<std::string, std::unique_ptr<ShadowedStatement>>();
  absl::MutexLock lock(&mutex);
  const std::string name = absl::StrCat(statement.name, suffix);
  std::unique_ptr<ShadowedStatement>& entry = (*built)[name];
  if (entry == nullptr) {
    entry = std::make_unique<ShadowedStatement>();
    entry->name = name;
    entry->sql = ShadowedSql(statement.sql, with_query());
    entry->statement = Statement{entry->name.c_str(), entry->sql.c_str(),
                                 /*merged=*/nullptr, statement.plan_each_time};
  }
  return entry->statement;
}

std::string ShadowingQueryOf(absl::string_view table,
                             absl::string_view rows_view,
                             const std::vector<ShadowColumn>& columns,
                             const std::vector<const char*>& key, int first) {
  std::vector<std::string> names, reads, arrays, matches;
  for (size_t i = 0; i < columns.size(); ++i) {
    const ShadowColumn& column = columns[i];
    names.push_back(column.name);
    reads.push_back(*column.read != '\0' ? std::string(column.read)
                                         : absl::StrCat("c.", column.name));
    arrays.push_back(absl::StrCat("$", first + static_cast<int>(i),
                                  "::", column.array_type, "[]"));
  }
  for (const char* column : key) {
    matches.push_back(absl::StrCat("r.", column, " = c.", column));
  }
  return absl::StrCat(
      table, " AS NOT MATERIALIZED (SELECT ", absl::StrJoin(names, ", "),
      " FROM ", rows_view, " UNION ALL SELECT ", absl::StrJoin(reads, ", "),
      " FROM unnest(", absl::StrJoin(arrays, ", "), ") AS c(",
      absl::StrJoin(names, ", "), ") WHERE NOT EXISTS (SELECT 1 FROM ",
      rows_view, " r WHERE ", absl::StrJoin(matches, " AND "), "))");
}

const Statement& WithCompactedQuotes(const Statement& statement,
                                     int first_parameter) {
  return WithQueryInFront(statement, "_with_compacted", [first_parameter] {
    return ShadowingQueryOf("stock_quotes", "stock_quote_rows",
                            {{"nse_symbol", "text"},
                             {"observed_at", "timestamptz"},
                             {"trading_day", "date"},
                             {"last_price", "float8"},
                             {"volume", "float8"},
                             {"quote_data", "bytea"},
                             {"written_by", "int8"},
                             {"written_at", "timestamptz"},
                             {"seq", "int8"},
                             {"txid", "int8", "c.txid::text::xid8"}},
                            {"nse_symbol", "observed_at", "trading_day"},
                            first_parameter);
  });
}

void AppendCompactedQuotes(const std::vector<CompactedQuote>& quotes,
                           Params& params) {
  std::vector<std::string> symbols, payloads;
  std::vector<absl::Time> observed, written_at;
  std::vector<absl::CivilDay> days;
  std::vector<std::optional<double>> prices, volumes;
  std::vector<std::optional<int64_t>> writers;
  std::vector<int64_t> seqs, txids;
  for (const CompactedQuote& compacted : quotes) {
    const domain::StoredQuote& quote = compacted.quote;
    symbols.push_back(compacted.symbol);
    observed.push_back(absl::FromUnixMicros(quote.observed_at_us));
    days.push_back(compacted.trading_day);
    prices.push_back(quote.last_price);
    volumes.push_back(quote.volume);
    payloads.push_back(quote.quote_data);
    writers.push_back(quote.written_by);
    written_at.push_back(absl::FromUnixMicros(quote.written_at_us));
    seqs.push_back(quote.seq);
    txids.push_back(static_cast<int64_t>(quote.txid));
  }
  params.TextArray(symbols)
      .TimeArray(observed)
      .DateArray(days)
      .DoubleArray(prices)
      .DoubleArray(volumes)
      .BytesArray(payloads)
      .OptionalInt64Array(writers)
      .TimeArray(written_at)
      .Int64Array(seqs)
      .Int64Array(txids);
}

absl::StatusOr<Result> ExecSeeingCompactedQuotes(
    Connection& conn, const Statement& statement, Params params,
    const CompactedFilter& filter) {
  auto loaded = LoadCompactedBatches(conn, filter);
  if (!loaded.ok()) return loaded.status();
  return ExecSeeingLoadedQuotes(conn, statement, std::move(params), *loaded,
                                filter);
}

absl::StatusOr<Result> ExecSeeingLoadedQuotes(Connection& conn,
                                              const Statement& statement,
                                              Params params,
                                              const CompactedBatches& loaded,
                                              const CompactedFilter& filter) {
  for (const CompactedBatch& batch : loaded.batches) {
    // The statement would be given empty payloads.
    if (batch.quotes->parts != domain::QuoteBatchParts::kWhole) {
      return absl::InternalError(
          "compacted quotes without their payloads passed to a statement");
    }
  }
  const std::vector<CompactedQuote> compacted = QuotesWithin(loaded, filter);
  if (compacted.empty()) return conn.Exec(statement, params);
  const int first = params.size() + 1;
  AppendCompactedQuotes(compacted, params);
  return conn.Exec(WithCompactedQuotes(statement, first), params);
}

}  // namespace mdc::storage
