// OHLCV candles built from stored quotes (docs/api.md section 6).
//
// Buckets: intraday intervals (1minute ... 4hour) are aligned to the session
// open, 09:15 IST, of each trading day and never span two trading days (a
// bucket that would start before 00:00 IST of the day starts at 00:00); 1day
// is the trading day (from 00:00 IST); 1week the ISO week, Monday to Sunday,
// of the trading day; 1month its calendar month. A candle's time is the
// start of its bucket. Buckets without a priced quote are absent.
//
// Prices: open is the first last_price of the bucket, close the last,
// high/low the max/min. Quotes without a last_price are ignored entirely.
//
// Volume: quotes carry the day's cumulative traded volume. A candle's volume
// is the sum, over its quotes, of each quote's increase over the previous
// priced quote of the same trading day. The first quote of a trading day
// contributes its whole cumulative value; a quote whose cumulative value is
// lower than the previous one (the feed reset its counter) contributes its
// new cumulative value; a quote without a volume contributes nothing and
// leaves the previous value as the baseline. A candle none of whose quotes
// reported a volume has no volume (nullopt, absent in the API's JSON): "no
// data" stays apart from "no trades" (0).
//
// Pure functions and a single-threaded builder; thread-compatible.
#ifndef MDC_DOMAIN_CANDLES_H_
#define MDC_DOMAIN_CANDLES_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The most candles one answer may hold.
inline constexpr int kMaxCandles = 50000;

enum class CandleUnit { kMinutes, kDay, kWeek, kMonth };

struct CandleInterval {
  std::string name;  // as the API writes it: "5minute", "1day"
  CandleUnit unit = CandleUnit::kMinutes;
  // Bucket length for kMinutes; the nominal length otherwise (1day 1440,
  // 1week 10080, 1month 43200), reported as `intervalMinutes`.
  int minutes = 1;
};

// One of the twelve interval names of the API, exactly as written there
// (1minute, 2minute, 3minute, 5minute, 10minute, 15minute, 30minute, 1hour,
// 4hour, 1day, 1week, 1month). Anything else → INVALID_ARGUMENT listing them.
absl::StatusOr<CandleInterval> ParseInterval(absl::string_view text);

// What candles need of one stored quote.
struct PricePoint {
  absl::Time time;
  std::optional<double> last_price;
  std::optional<double> volume;  // cumulative for the trading day
};

struct Candle {
  absl::Time time;  // bucket start
  double open = 0;
  double high = 0;
  double low = 0;
  double close = 0;
  // nullopt when no quote of the bucket reported a volume.
  std::optional<double> volume;
  // When the close was quoted (which symbol it was stored under, across a
  // rename).
  absl::Time close_time;
};

// What bucketing needs to know about one trading day. Zone conversions are
// the expensive part of building candles, so they happen once per day here,
// not once per point.
struct DayGrid {
  absl::CivilDay day;
  absl::Time begin;  // 00:00 IST of `day`
  absl::Time end;    // 00:00 IST of the next day
  absl::Time session_open;
  // The one bucket of the whole day for 1day/1week/1month intervals.
  absl::Time calendar_bucket;

  bool Contains(absl::Time t) const { return begin <= t && t < end; }
};

// The grid of the trading day `t` falls on.
DayGrid GridFor(const CandleInterval& interval, absl::Time t);

// The start of the bucket `t` falls in; `grid` must contain `t`.
absl::Time BucketStart(const CandleInterval& interval, const DayGrid& grid,
                       absl::Time t);

// The start of the bucket `t` falls in.
absl::Time BucketStart(const CandleInterval& interval, absl::Time t);

// Builds candles from price points fed in ascending time order, one page at
// a time if need be, so a long range never has to sit in memory whole.
class CandleBuilder {
 public:
  explicit CandleBuilder(CandleInterval interval)
      : interval_(std::move(interval)) {}

  // Adds the next point; `point.time` must not be before the previous one.
  void Add(const PricePoint& point);

  // How many candles exist so far (the last one may still grow).
  size_t size() const { return candles_.size(); }

  // The candles, ascending by time.
  std::vector<Candle> Finish() && { return std::move(candles_); }

  // Removes and returns every candle but the last, which a later point may
  // still change: what a stream can send so far.
  std::vector<Candle> TakeFinished();

 private:
  CandleInterval interval_;
  std::vector<Candle> candles_;
  std::optional<DayGrid> grid_;            // trading day of the last point
  std::optional<double> previous_volume_;  // last cumulative volume that day
};

// CandleBuilder over a whole ascending series.
std::vector<Candle> BuildCandles(const CandleInterval& interval,
                                 const std::vector<PricePoint>& points);

// Reads one page of a keyset read of price points, ascending: up to `limit`
// points stamped after `after` (from the start of the range when nullopt).
using PricePageReader = std::function<absl::StatusOr<std::vector<PricePoint>>(
    std::optional<absl::Time> after, int limit)>;

// CandleBuilder over every point `read_page` yields, read `page_size` points
// at a time so a long range never sits in memory whole. Fails with the first
// failed read, or, as soon as there are more than kMaxCandles candles, with
// INVALID_ARGUMENT on `start_datetime` asking for a smaller range or a longer
// interval.
absl::StatusOr<std::vector<Candle>> ReadCandles(
    const CandleInterval& interval, int page_size,
    const PricePageReader& read_page);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_CANDLES_H_
