// The backtest clock: a request may say what "now" is (X-Current-Timestamp /
// X-Current-Timezone), and then nothing at or after that instant may be
// asked for or returned, so a backtest can never see the future.
#ifndef MDC_DOMAIN_BACKTEST_CLOCK_H_
#define MDC_DOMAIN_BACKTEST_CLOCK_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

class BacktestClock {
 public:
  // No clock: reads are not restricted.
  BacktestClock() = default;
  explicit BacktestClock(absl::Time now) : now_(now) {}

  // From the header values; an empty timestamp means no clock. Returns
  // INVALID_ARGUMENT naming the header when either is malformed.
  static absl::StatusOr<BacktestClock> FromHeaders(absl::string_view timestamp,
                                                   absl::string_view timezone);

  bool active() const { return now_.has_value(); }

  // The request's "now": the clock when set, else `wall_now`.
  absl::Time Now(absl::Time wall_now) const {
    return now_.has_value() ? *now_ : wall_now;
  }

  // OK when `asked` (what the parameter `field` asks for) lies before the
  // clock; otherwise PERMISSION_DENIED naming both instants, with reason
  // FUTURE_READ (domain/error_reason.h).
  absl::Status CheckBefore(absl::Time asked, absl::string_view field) const;

  // The latest instant a read may return data for, at most `limit`: data is
  // returned only when stamped strictly before the clock.
  absl::Time LatestVisible(absl::Time limit) const;

  // An exclusive upper bound cut at the clock: min(end, clock).
  absl::Time CutEnd(absl::Time end) const;

 private:
  std::optional<absl::Time> now_;
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_BACKTEST_CLOCK_H_
