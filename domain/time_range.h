// The windows of the developer reads over a range of time (timelines,
// candles, persistence), with the defaults of docs/api.md section 3 and the
// backtest clock applied.
#ifndef MDC_DOMAIN_TIME_RANGE_H_
#define MDC_DOMAIN_TIME_RANGE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"

namespace mdc::domain {

// The instants a read returns: [start, end). `asked_start`/`asked_end` are
// the bounds as the client asked (or defaulted) before the backtest clock
// cut the window, for echoing in answers.
struct TimeRange {
  absl::Time start;
  absl::Time end;  // exclusive
  absl::Time asked_start;
  absl::Time asked_end;
};

// Whether `end_datetime` names the last instant included or the first one
// excluded.
enum class EndIs { kExclusive, kInclusive };

// Parses `start_datetime` / `end_datetime` (query parameters) in `timezone`.
// end defaults to now (the backtest clock when set, else `wall_now`); start
// defaults to the session open (09:15 IST) of the trading day of end, once
// the backtest clock has cut end, or to end when that is earlier. Returns
// INVALID_ARGUMENT naming the parameter when one is malformed or start is
// after end, and PERMISSION_DENIED naming both instants when start is at or
// after the backtest clock. The window is cut at the
// backtest clock so nothing stamped at or after it is inside.
absl::StatusOr<TimeRange> TimeRangeFor(absl::string_view start_datetime,
                                       absl::string_view end_datetime,
                                       absl::string_view timezone,
                                       const BacktestClock& clock,
                                       absl::Time wall_now, EndIs end_is);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TIME_RANGE_H_
