// Reads of one whole trading day (daily analytics, a day's candles, a day's
// quote timeline) under the backtest clock: how far into the day they may
// see.
#ifndef MDC_DOMAIN_DAY_READS_H_
#define MDC_DOMAIN_DAY_READS_H_

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"

namespace mdc::domain {

// The last instant a read of trading day `day` may return: the day's last
// microsecond, cut at the backtest clock (data strictly before it). A day
// that starts at or after the clock is PERMISSION_DENIED naming `date`, like
// any read of the future.
absl::StatusOr<absl::Time> DayReadLimit(absl::CivilDay day,
                                        const BacktestClock& clock);

// A half-open span of instants [start, end); empty when start >= end.
struct TimeWindow {
  absl::Time start;
  absl::Time end;
  bool empty() const { return start >= end; }
};

// What a day's session candles cover: the regular session [09:15, 15:30)
// IST of `day`, cut after `limit`, the
// last visible instant (DayReadLimit). Empty when the backtest clock stops
// the day before the session opens.
TimeWindow SessionReadWindow(absl::CivilDay day, absl::Time limit);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_DAY_READS_H_
