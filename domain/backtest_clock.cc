#include "domain/backtest_clock.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "domain/error_reason.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<BacktestClock> BacktestClock::FromHeaders(
    absl::string_view timestamp, absl::string_view timezone) {
  if (timestamp.empty()) {
    if (!timezone.empty()) {
      auto zone = ResolveTimeZone(timezone);
      if (!zone.ok()) {
        return InvalidField("X-Current-Timezone", zone.status().message());
      }
    }
    return BacktestClock();
  }
  FieldErrors errors;
  auto civil = ParseWallClock(timestamp);
  errors.AddStatus("X-Current-Timestamp", civil.status());
  auto zone = ResolveTimeZone(timezone);
  errors.AddStatus("X-Current-Timezone", zone.status());
  if (!errors.empty()) return errors.ToStatus();
  auto now = SupportedInstantAt(*civil, *zone);
  errors.AddStatus("X-Current-Timestamp", now.status());
  if (!errors.empty()) return errors.ToStatus();
  return BacktestClock(*now);
}

absl::Status BacktestClock::CheckBefore(absl::Time asked,
                                        absl::string_view field) const {
  if (!now_.has_value() || asked < *now_) return absl::OkStatus();
  const std::string clock = FormatInstant(*now_);
  // A reason, because a 403 is also a developer token on an admin route: a
  // backtest tells "asked for the future" from "not allowed" without
  // parsing the message.
  return WithReason(
      absl::PermissionDeniedError(absl::StrCat(
          field, " ", FormatInstant(asked),
          " is not before the backtest clock (X-Current-Timestamp) ", clock,
          "; data at or after the current time is hidden")),
      reason::kFutureRead,
      {{"field", std::string(field)}, {"backtestClock", clock}});
}

absl::Time BacktestClock::LatestVisible(absl::Time limit) const {
  if (!now_.has_value()) return limit;
  // Instants are stored with microsecond precision.
  return std::min(limit, *now_ - absl::Microseconds(1));
}

absl::Time BacktestClock::CutEnd(absl::Time end) const {
  return now_.has_value() ? std::min(end, *now_) : end;
}

}  // namespace mdc::domain
