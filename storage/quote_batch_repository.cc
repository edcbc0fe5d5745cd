#include "storage/quote_batch_repository.h"

#include <algorithm>

#include "absl/status/status.h"
#include "domain/proto_time.h"
#include "storage/quote_columns.h"
#include "storage/rows.h"
#include "storage/trading_day_bounds.h"

namespace mdc::storage {
namespace {

// One index range scan of the primary key (nse_symbol, observed_at) per
// symbol, in the partitions of trading days $4 to $5 only
// (storage/trading_day_bounds.h).
constexpr Statement kFindLatestOfSymbols{
    "quote_batches_latest_of_symbols",
    "SELECT DISTINCT ON (nse_symbol) nse_symbol, observed_at, quote_data "
    "FROM stock_quotes WHERE nse_symbol = ANY ($1::text[]) "
    "AND observed_at >= $2 AND observed_at <= $3 "
    "AND trading_day BETWEEN $4 AND $5 "
    "ORDER BY nse_symbol, observed_at DESC"};

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
  auto result =
      (*conn)->Exec(kFindLatestOfSymbols, Params()
                                              .TextArray(symbols)
                                              .Time(not_before)
                                              .Time(at)
                                              .Date(TradingDayFrom(not_before))
                                              .Date(TradingDayTo(at)));
  if (!result.ok()) return result.status();
  for (int i = 0; i < result->rows(); ++i) {
    v1::StockQuote quote;
    quote.set_nse_symbol(result->String(i, 0));
    SetStoredTimestamp(result->Time(i, 1), "stock_quotes",
                       quote.mutable_timestamp());
    if (!ParseQuoteData(result->Bytes(i, 2), quote.mutable_quote_data())) {
      return absl::DataLossError("a stored quote is unreadable");
    }
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
  auto result =
      (*conn)->Exec(kPricesOfSymbolDays,
                    Params().TextArray(symbols).DateArray(days).Time(before));
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

}  // namespace mdc::storage
