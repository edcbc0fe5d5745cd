// Reads of many symbols' quotes in one statement each: the as-of quote of
// every entry of a dashboard shortlist and of a cross-section (GetQuotes),
// the as-of quotes of every symbol of a day, the symbols of a range (the
// exports), and the prices of every (symbol, trading day) a page of orders
// needs, so outcomes never cost a query per order or per candle.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_QUOTE_BATCH_REPOSITORY_H_
#define MDC_STORAGE_QUOTE_BATCH_REPOSITORY_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/candles.h"
#include "domain/symbol_day.h"
#include "mdc/v1/market.pb.h"
#include "storage/pool.h"

namespace mdc::storage {

class QuoteBatchRepository {
 public:
  explicit QuoteBatchRepository(ConnectionPool& pool) : pool_(pool) {}

  // For each of `symbols`, its latest quote stamped in [not_before, at], as
  // a StockQuote; symbols without one are absent from the map. One
  // statement, one descent of the primary key per symbol (not a read of
  // their every quote of the day).
  absl::StatusOr<absl::flat_hash_map<std::string, v1::StockQuote>>
  FindLatestOfSymbols(const std::vector<std::string>& symbols,
                      absl::Time not_before, absl::Time at);

  // The latest quote in [not_before, at] of up to `limit` symbols after
  // `after` ("" for the first) that have one, by symbol: a page of the
  // cross-section of every symbol. [not_before, at] must lie within one
  // trading day.
  absl::StatusOr<std::vector<v1::StockQuote>> FindLatestOfEvery(
      const std::string& after, absl::Time not_before, absl::Time at,
      int limit);

  // Up to `limit` symbols after `after` ("" for the first), ascending, of
  // the quotes stored in the months of the trading days `first` to `last`:
  // a superset of the symbols quoted on those days
  // (storage/trading_day_bounds.h, PartitionFrom), read one index descent
  // per symbol.
  absl::StatusOr<std::vector<std::string>> ListSymbols(const std::string& after,
                                                       absl::CivilDay first,
                                                       absl::CivilDay last,
                                                       int limit);

  // For each (symbol, trading day) of `keys` (distinct), the quotes with a
  // last price stamped that day before `before`, ascending; keys without
  // any are absent from the map. One statement for all keys.
  absl::StatusOr<
      absl::flat_hash_map<domain::SymbolDay, std::vector<domain::PricePoint>>>
  PricesOfSymbolDays(const std::vector<domain::SymbolDay>& keys,
                     absl::Time before);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_QUOTE_BATCH_REPOSITORY_H_
