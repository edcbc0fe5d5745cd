#include "storage/quote_batch_repository.h"

#include <algorithm>

#include "absl/status/status.h"
#include "domain/proto_time.h"
#include "storage/compacted_quotes.h"
#include "storage/compacted_reads_fast.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

// The latest quote of one symbol `s.symbol` in [$2, $3] within the trading
// days $4-$5: one descent of the primary key (nse_symbol, observed_at,
// trading_day), backwards, in the partitions of those days only
// (storage/trading_day_bounds.h). Joined LATERAL to a list of symbols it is
// kdb+'s `aj` or QuestDB's LATEST ON in PostgreSQL terms; a DISTINCT ON over
// the symbols' rows would read and sort every quote of their day instead.
#define MDC_LATEST_OF_SYMBOL                                              \
  "CROSS JOIN LATERAL (SELECT observed_at, quote_data FROM stock_quotes " \
  "WHERE nse_symbol = s.symbol AND observed_at >= $2 "                    \
  "AND observed_at <= $3 AND trading_day BETWEEN $4 AND $5 "              \
  "ORDER BY observed_at DESC LIMIT 1) q "

constexpr Statement kFindLatestOfSymbols{
    "quote_batches_latest_of_symbols",
    "SELECT s.symbol, q.observed_at, q.quote_data "
    "FROM unnest($1::text[]) AS s(symbol) " MDC_LATEST_OF_SYMBOL,
    /*merged=*/nullptr, /*plan_each_time=*/true};

// The distinct symbols after $1 of the partitions of the trading days
// `from`-`to` (widened to whole months, PartitionFrom): a loose index scan,
// one descent of the primary key per symbol instead of a read of every row.
#define MDC_SYMBOLS_AFTER(from, to)                                      \
  "WITH RECURSIVE s(symbol) AS ("                                        \
  "(SELECT nse_symbol FROM stock_quotes WHERE nse_symbol > $1 "          \
  "AND trading_day BETWEEN " from " AND " to                             \
  " ORDER BY nse_symbol LIMIT 1) "                                       \
  "UNION ALL SELECT (SELECT nse_symbol FROM stock_quotes "               \
  "WHERE nse_symbol > s.symbol AND trading_day BETWEEN " from " AND " to \
  " ORDER BY nse_symbol LIMIT 1) FROM s WHERE s.symbol IS NOT NULL) "

constexpr Statement kFindLatestOfEvery{
    "quote_batches_latest_of_every",
    MDC_SYMBOLS_AFTER("$6", "$7")
    "SELECT s.symbol, q.observed_at, q.quote_data FROM s "
    MDC_LATEST_OF_SYMBOL "WHERE s.symbol IS NOT NULL LIMIT $8",
    /*merged=*/nullptr, /*plan_each_time=*/true};

// With the symbols of the compacted days of those months (their batches'
// keys: no batch needs decoding to list its symbol).
constexpr Statement kListSymbols{
    "quote_batches_list_symbols",
    MDC_SYMBOLS_AFTER("$2", "$3") "SELECT symbol FROM ("
    "SELECT symbol FROM s WHERE symbol IS NOT NULL "
    "UNION SELECT nse_symbol FROM stock_quote_batches WHERE nse_symbol > $1 "
    "AND trading_day BETWEEN $2 AND $3) symbols ORDER BY symbol LIMIT $4"};

// Rows of (symbol, observed_at, quote_data).
absl::StatusOr<v1::StockQuote> SymbolQuoteAt(const Result& result, int row) {
  v1::StockQuote quote;
  quote.set_nse_symbol(result.String(row, 0));
  SetStoredTimestamp(result.Time(row, 1), "stock_quotes",
                     quote.mutable_timestamp());
  if (!ParseQuoteData(result.Bytes(row, 2), quote.mutable_quote_data())) {
    return absl::DataLossError("a stored quote is unreadable");
  }
  return quote;
}

// The (symbol, day) pairs travel as two parallel arrays. Each pair is one
// range of the primary key (symbol, instant; prices included, migration 0005),
// the trading day's bounds computed in the exchange zone as
// domain::DayStart does; rows come back tagged with the pair's position.
// No ORDER BY over the whole result (a sort of every row): each pair's rows
// come ascending from its index range, and the reader re-sorts a pair's rows
// only should a plan ever interleave them. The trading day itself is a
// condition too, so each pair reads its day's partition only.
constexpr Statement kPricesOfSymbolDays{
    "quote_batches_prices_of_symbol_days",
    "SELECT k.i, q.observed_at, q.last_price, q.volume "
    "FROM unnest($1::text[], $2::date[]) WITH ORDINALITY "
    "AS k(nse_symbol, trading_day, i) "
    "CROSS JOIN LATERAL (SELECT observed_at, last_price, volume "
    "FROM stock_quotes s WHERE s.nse_symbol = k.nse_symbol "
    "AND s.trading_day = k.trading_day "
    "AND s.observed_at >= k.trading_day::timestamp AT TIME ZONE 'Asia/Kolkata' "
    "AND s.observed_at < (k.trading_day + 1)::timestamp "
    "AT TIME ZONE 'Asia/Kolkata' "
    "AND s.observed_at < $3 AND s.last_price IS NOT NULL "
    "ORDER BY s.observed_at) q"};

}  // namespace

absl::StatusOr<absl::flat_hash_map<std::string, v1::StockQuote>>
QuoteBatchRepository::FindLatestOfSymbols(
    const std::vector<std::string>& symbols, absl::Time not_before,
    absl::Time at) {
  absl::flat_hash_map<std::string, v1::StockQuote> found;
  if (symbols.empty()) return found;
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  CompactedFilter compacted{
      TradingDayFrom(not_before), TradingDayTo(at), symbols, not_before, at,
      /*latest_only=*/true};
  auto result = LatestSeeingCompacted(**conn, kFindLatestOfSymbols,
                                      Params()
                                          .TextArray(symbols)
                                          .Time(not_before)
                                          .Time(at)
                                          .Date(TradingDayFrom(not_before))
                                          .Date(TradingDayTo(at)),
                                      compacted, /*with_symbol=*/true);
  if (!result.ok()) return result.status();
  auto quotes = ReadRows<v1::StockQuote>(*result, SymbolQuoteAt);
  if (!quotes.ok()) return quotes.status();
  for (v1::StockQuote& quote : *quotes) {
    std::string symbol = quote.nse_symbol();
    found.emplace(std::move(symbol), std::move(quote));
  }
  return found;
}

absl::StatusOr<
    absl::flat_hash_map<domain::SymbolDay, std::vector<domain::PricePoint>>>
QuoteBatchRepository::PricesOfSymbolDays(
    const std::vector<domain::SymbolDay>& keys, absl::Time before) {
  absl::flat_hash_map<domain::SymbolDay, std::vector<domain::PricePoint>> found;
  if (keys.empty()) return found;
  std::vector<std::string> symbols;
  std::vector<absl::CivilDay> days;
  symbols.reserve(keys.size());
  days.reserve(keys.size());
  for (const auto& [symbol, day] : keys) {
    symbols.push_back(symbol);
    days.push_back(day);
  }
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  std::vector<std::string> distinct_symbols(symbols);
  std::sort(distinct_symbols.begin(), distinct_symbols.end());
  distinct_symbols.erase(
      std::unique(distinct_symbols.begin(), distinct_symbols.end()),
      distinct_symbols.end());
  CompactedFilter compacted{*std::min_element(days.begin(), days.end()),
                            *std::max_element(days.begin(), days.end()),
                            std::move(distinct_symbols), std::nullopt, before};
  // The prices alone, without the payloads; whole quotes when the
  // statement must run after all.
  compacted.parts = domain::QuoteBatchParts::kPrices;
  auto loaded = LoadCompactedBatches(**conn, compacted);
  if (!loaded.ok()) return loaded.status();
  if (!loaded->batches.empty()) {
    if (PricesFromBatches(*loaded, keys, before, found)) return found;
    compacted.parts = domain::QuoteBatchParts::kWhole;
    loaded = LoadCompactedBatches(**conn, compacted);
    if (!loaded.ok()) return loaded.status();
  }
  auto result = ExecSeeingLoadedQuotes(
      **conn, kPricesOfSymbolDays,
      Params().TextArray(symbols).DateArray(days).Time(before), *loaded,
      compacted);
  if (!result.ok()) return result.status();
  std::vector<domain::PricePoint>* current = nullptr;
  int64_t current_index = 0;
  for (int row = 0; row < result->rows(); ++row) {
    const int64_t index = result->Int64(row, 0);  // 1-based position
    if (current == nullptr || index != current_index) {
      if (index < 1 || index > static_cast<int64_t>(keys.size())) {
        return absl::InternalError("price rows out of step with their keys");
      }
      current_index = index;
      current = &found[keys[index - 1]];
    }
    current->push_back(domain::PricePoint{result->Time(row, 1),
                                          result->Double(row, 2),
                                          result->OptionalDouble(row, 3)});
  }
  for (auto& [key, points] : found) {
    auto earlier = [](const domain::PricePoint& a,
                      const domain::PricePoint& b) { return a.time < b.time; };
    if (!std::is_sorted(points.begin(), points.end(), earlier)) {
      std::stable_sort(points.begin(), points.end(), earlier);
    }
  }
  return found;
}

absl::StatusOr<std::vector<v1::StockQuote>>
QuoteBatchRepository::FindLatestOfEvery(const std::string& after,
                                        absl::Time not_before, absl::Time at,
                                        int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  // Only symbols with a quote in [not_before, at] make a row (the LATERAL
  // join drops the others), so only those batches matter.
  CompactedFilter compacted{TradingDayFrom(not_before),
                            TradingDayTo(at),
                            std::nullopt,
                            not_before,
                            at,
                            /*latest_only=*/true};
  auto result = ExecSeeingCompactedQuotes(
      **conn, kFindLatestOfEvery,
      Params()
          .Text(after)
          .Time(not_before)
          .Time(at)
          .Date(TradingDayFrom(not_before))
          .Date(TradingDayTo(at))
          .Date(PartitionFrom(TradingDayFrom(not_before)))
          .Date(PartitionTo(TradingDayTo(at)))
          .Int32(limit),
      compacted);
  if (!result.ok()) return result.status();
  return ReadRows<v1::StockQuote>(*result, SymbolQuoteAt);
}

absl::StatusOr<std::vector<std::string>> QuoteBatchRepository::ListSymbols(
    const std::string& after, absl::CivilDay first, absl::CivilDay last,
    int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListSymbols, Params()
                                                .Text(after)
                                                .Date(PartitionFrom(first))
                                                .Date(PartitionTo(last))
                                                .Int32(limit));
  if (!result.ok()) return result.status();
  std::vector<std::string> symbols;
  symbols.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    symbols.push_back(result->String(row, 0));
  }
  return symbols;
}

}  // namespace mdc::storage
