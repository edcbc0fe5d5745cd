// The "as of t" rule of every developer read: the latest record stamped at
// or before t on t's trading day.
#ifndef MDC_DOMAIN_AS_OF_H_
#define MDC_DOMAIN_AS_OF_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"

namespace mdc::domain {

// The instants an as-of read searches: [not_before, at].
struct AsOfWindow {
  absl::Time not_before;  // 00:00 IST of at's trading day
  absl::Time at;
};

// What a read means when the client gives no datetime.
enum class WhenAbsent {
  kNow,           // as of now: the latest record of today's trading day
  kLatestStored,  // the latest record stored, whatever its day
};

// The window for `datetime` (query parameter) in `timezone`. "Now" is the
// backtest clock's instant (exclusive) when set, else `wall_now`. A datetime
// at or after the backtest clock is PERMISSION_DENIED; a malformed one
// INVALID_ARGUMENT naming the parameter.
absl::StatusOr<AsOfWindow> AsOfWindowFor(absl::string_view datetime,
                                         absl::string_view timezone,
                                         const BacktestClock& clock,
                                         absl::Time wall_now,
                                         WhenAbsent when_absent);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_AS_OF_H_
