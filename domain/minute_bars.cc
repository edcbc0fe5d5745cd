#include "domain/minute_bars.h"

#include <string>
#include <utility>
#include <vector>

namespace mdc::domain {
namespace {

const CandleInterval& OneMinute() {
  static const CandleInterval* const interval =
      new CandleInterval(*ParseInterval("1minute"));
  return *interval;
}

}  // namespace

std::vector<MinuteBar> MinuteBarsOf(const std::vector<PricePoint>& prices) {
  std::vector<MinuteBar> bars;
  const std::vector<Candle> candles = BuildCandles(OneMinute(), prices);
  bars.reserve(candles.size());
  for (const Candle& candle : candles) {
    bars.push_back(MinuteBar{candle.time, candle.high, candle.low});
  }
  return bars;
}

const std::vector<MinuteBar>& MinuteBarCache::Of(const std::string& symbol,
                                                 absl::CivilDay day) {
  SymbolDay key(symbol, day);
  auto built = bars_.find(key);
  if (built != bars_.end()) return built->second;
  std::vector<MinuteBar> bars;
  auto prices = prices_.find(key);
  if (prices != prices_.end()) bars = MinuteBarsOf(prices->second);
  return bars_.emplace(std::move(key), std::move(bars)).first->second;
}

}  // namespace mdc::domain
