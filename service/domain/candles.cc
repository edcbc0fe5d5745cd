#include "service/domain/candles.h"

#include <algorithm>
#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "service/domain/text.h"
#include "service/domain/time.h"

namespace mdc::domain {
namespace {

const std::array<CandleInterval, 12>& Intervals() {
  static const auto* intervals = new std::array<CandleInterval, 12>{{
      {"1minute", CandleUnit::kMinutes, 1},
      {"2minute", CandleUnit::kMinutes, 2},
      {"3minute", CandleUnit::kMinutes, 3},
      {"5minute", CandleUnit::kMinutes, 5},
      {"10minute", CandleUnit::kMinutes, 10},
      {"15minute", CandleUnit::kMinutes, 15},
      {"30minute", CandleUnit::kMinutes, 30},
      {"1hour", CandleUnit::kMinutes, 60},
      {"4hour", CandleUnit::kMinutes, 240},
      {"1day", CandleUnit::kDay, 1440},
      {"1week", CandleUnit::kWeek, 7 * 1440},
      {"1month", CandleUnit::kMonth, 30 * 1440},
  }};
  return *intervals;
}

}  // namespace

absl::StatusOr<CandleInterval> ParseInterval(absl::string_view text) {
  for (const CandleInterval& interval : Intervals()) {
    if (text == interval.name) return interval;
  }
  std::vector<std::string> names;
  for (const CandleInterval& interval : Intervals()) {
    names.push_back(interval.name);
  }
  if (text.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("is required; one of ", absl::StrJoin(names, ", ")));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("must be one of ", absl::StrJoin(names, ", "), ", got ",
                   QuoteForMessage(text)));
}

absl::Time BucketStart(const CandleInterval& interval, absl::Time t) {
  const absl::CivilDay day = TradingDay(t);
  switch (interval.unit) {
    case CandleUnit::kMinutes: {
      const absl::Time open = SessionOpen(day);
      const absl::Time start =
          open + absl::Floor(t - open, absl::Minutes(interval.minutes));
      // Buckets belong to one trading day: the grid is cut at 00:00 IST.
      return std::max(start, DayStart(day));
    }
    case CandleUnit::kDay:
      return DayStart(day);
    case CandleUnit::kWeek:
      return DayStart(absl::PrevWeekday(day + 1, absl::Weekday::monday));
    case CandleUnit::kMonth:
      return DayStart(absl::CivilDay(absl::CivilMonth(day)));
  }
  return DayStart(day);
}

void CandleBuilder::Add(const PricePoint& point) {
  if (!point.last_price.has_value()) return;
  const absl::CivilDay day = TradingDay(point.time);
  if (day_ != day) {
    day_ = day;
    previous_volume_.reset();
  }
  double volume = 0;
  if (point.volume.has_value()) {
    const double cumulative = *point.volume;
    if (!previous_volume_.has_value() || cumulative < *previous_volume_) {
      volume = cumulative;  // first of the day, or the counter was reset
    } else {
      volume = cumulative - *previous_volume_;
    }
    previous_volume_ = cumulative;
  }
  const double price = *point.last_price;
  const absl::Time start = BucketStart(interval_, point.time);
  if (candles_.empty() || candles_.back().time != start) {
    candles_.push_back(Candle{start, price, price, price, price, volume});
    return;
  }
  Candle& candle = candles_.back();
  candle.high = std::max(candle.high, price);
  candle.low = std::min(candle.low, price);
  candle.close = price;
  candle.volume += volume;
}

std::vector<Candle> BuildCandles(const CandleInterval& interval,
                                 const std::vector<PricePoint>& points) {
  CandleBuilder builder(interval);
  for (const PricePoint& point : points) builder.Add(point);
  return std::move(builder).Finish();
}

}  // namespace mdc::domain
