#include "domain/candles.h"

#include <algorithm>
#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "domain/field_errors.h"
#include "domain/text.h"
#include "domain/time.h"

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

DayGrid GridFor(const CandleInterval& interval, absl::Time t) {
  DayGrid grid;
  grid.day = TradingDay(t);
  grid.begin = DayStart(grid.day);
  grid.end = DayStart(grid.day + 1);
  grid.session_open = SessionOpen(grid.day);
  switch (interval.unit) {
    case CandleUnit::kMinutes:
    case CandleUnit::kDay:
      grid.calendar_bucket = grid.begin;
      break;
    case CandleUnit::kWeek:
      grid.calendar_bucket =
          DayStart(absl::PrevWeekday(grid.day + 1, absl::Weekday::monday));
      break;
    case CandleUnit::kMonth:
      grid.calendar_bucket =
          DayStart(absl::CivilDay(absl::CivilMonth(grid.day)));
      break;
  }
  return grid;
}

absl::Time BucketStart(const CandleInterval& interval, const DayGrid& grid,
                       absl::Time t) {
  if (interval.unit != CandleUnit::kMinutes) return grid.calendar_bucket;
  const absl::Time start =
      grid.session_open +
      absl::Floor(t - grid.session_open, absl::Minutes(interval.minutes));
  // Buckets belong to one trading day: the grid is cut at 00:00 IST.
  return std::max(start, grid.begin);
}

absl::Time BucketStart(const CandleInterval& interval, absl::Time t) {
  return BucketStart(interval, GridFor(interval, t), t);
}

void CandleBuilder::Add(const PricePoint& point) {
  if (!point.last_price.has_value()) return;
  if (!grid_.has_value() || !grid_->Contains(point.time)) {
    grid_ = GridFor(interval_, point.time);
    previous_volume_.reset();
  }
  std::optional<double> volume;
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
  const absl::Time start = BucketStart(interval_, *grid_, point.time);
  if (candles_.empty() || candles_.back().time != start) {
    candles_.push_back(
        Candle{start, price, price, price, price, volume, point.time});
    return;
  }
  Candle& candle = candles_.back();
  candle.high = std::max(candle.high, price);
  candle.low = std::min(candle.low, price);
  candle.close = price;
  candle.close_time = point.time;
  if (volume.has_value()) candle.volume = candle.volume.value_or(0) + *volume;
}

std::vector<Candle> CandleBuilder::TakeFinished() {
  if (candles_.size() < 2) return {};
  std::vector<Candle> finished(candles_.begin(), candles_.end() - 1);
  candles_.erase(candles_.begin(), candles_.end() - 1);
  return finished;
}

std::vector<Candle> BuildCandles(const CandleInterval& interval,
                                 const std::vector<PricePoint>& points) {
  CandleBuilder builder(interval);
  for (const PricePoint& point : points) builder.Add(point);
  return std::move(builder).Finish();
}

absl::StatusOr<std::vector<Candle>> ReadCandles(
    const CandleInterval& interval, int page_size,
    const PricePageReader& read_page) {
  CandleBuilder builder(interval);
  std::optional<absl::Time> after;
  while (true) {
    absl::StatusOr<std::vector<PricePoint>> points =
        read_page(after, page_size);
    if (!points.ok()) return points.status();
    for (const PricePoint& point : *points) builder.Add(point);
    if (builder.size() > kMaxCandles) {
      return InvalidField(
          "start_datetime",
          absl::StrCat("the range from start_datetime to end_datetime "
                       "holds more than ",
                       kMaxCandles, " ", interval.name,
                       " candles; ask for a smaller range or a longer "
                       "interval"));
    }
    if (static_cast<int>(points->size()) < page_size) break;
    after = points->back().time;
  }
  return std::move(builder).Finish();
}

}  // namespace mdc::domain
