// The 1-minute bars trade outcomes walk (outcomes.h), built from a
// symbol-day's stored prices, and a cache that builds each symbol-day's bars
// once however many trades of a page share it.
#ifndef MDC_DOMAIN_MINUTE_BARS_H_
#define MDC_DOMAIN_MINUTE_BARS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/time/civil_time.h"
#include "domain/candles.h"
#include "domain/outcomes.h"
#include "domain/symbol_day.h"

namespace mdc::domain {

// The 1-minute candles of `prices` (one symbol-day, ascending) reduced to
// what an outcome needs; minutes without a priced quote have no bar.
std::vector<MinuteBar> MinuteBarsOf(const std::vector<PricePoint>& prices);

// Minute bars by symbol-day, built on first use from the prices it was given.
// Thread-compatible: one per request.
class MinuteBarCache {
 public:
  explicit MinuteBarCache(
      absl::flat_hash_map<SymbolDay, std::vector<PricePoint>> prices)
      : prices_(std::move(prices)) {}

  // The bars of `symbol` on `day`; none when no prices were given for it.
  // The reference stays valid as long as the cache.
  const std::vector<MinuteBar>& Of(const std::string& symbol,
                                   absl::CivilDay day);

 private:
  absl::flat_hash_map<SymbolDay, std::vector<PricePoint>> prices_;
  // A node map so that references Of() returned survive later insertions.
  absl::node_hash_map<SymbolDay, std::vector<MinuteBar>> bars_;
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_MINUTE_BARS_H_
