#include "domain/as_of.h"

#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// The lower bound of "any stored instant" (the upper one is FarFuture()),
// finite so it encodes in SQL parameters.
const absl::Time kEarliestStored = absl::FromUnixSeconds(0);

}  // namespace

absl::StatusOr<AsOfWindow> AsOfWindowFor(absl::string_view datetime,
                                         absl::string_view timezone,
                                         const BacktestClock& clock,
                                         absl::Time wall_now,
                                         WhenAbsent when_absent) {
  FieldErrors errors;
  auto zone = ResolveTimeZone(timezone);
  errors.AddStatus("timezone", zone.status());
  absl::Time at;
  if (datetime.empty()) {
    if (!errors.empty()) return errors.ToStatus();
    if (when_absent == WhenAbsent::kLatestStored) {
      // Collectors' clocks may run ahead: "latest" includes anything stored,
      // bounded only by the backtest clock.
      return AsOfWindow{kEarliestStored, clock.LatestVisible(FarFuture())};
    }
    at = clock.LatestVisible(clock.Now(wall_now));
  } else {
    auto civil = ParseWallClock(datetime);
    errors.AddStatus("datetime", civil.status());
    if (!errors.empty()) return errors.ToStatus();
    auto supported = SupportedInstantAt(*civil, *zone);
    errors.AddStatus("datetime", supported.status());
    if (!errors.empty()) return errors.ToStatus();
    at = *supported;
    if (auto allowed = clock.CheckBefore(at, "datetime"); !allowed.ok()) {
      return allowed;
    }
  }
  if (!errors.empty()) return errors.ToStatus();
  return AsOfWindow{DayStart(TradingDay(at)), at};
}

}  // namespace mdc::domain
