#include "domain/time_range.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<TimeRange> TimeRangeFor(absl::string_view start_datetime,
                                       absl::string_view end_datetime,
                                       absl::string_view timezone,
                                       const BacktestClock& clock,
                                       absl::Time wall_now, EndIs end_is) {
  FieldErrors errors;
  auto zone = ResolveTimeZone(timezone);
  errors.AddStatus("timezone", zone.status());
  absl::StatusOr<absl::CivilSecond> start_civil;
  absl::StatusOr<absl::CivilSecond> end_civil;
  if (!start_datetime.empty()) {
    start_civil = ParseWallClock(start_datetime);
    errors.AddStatus("start_datetime", start_civil.status());
  }
  if (!end_datetime.empty()) {
    end_civil = ParseWallClock(end_datetime);
    errors.AddStatus("end_datetime", end_civil.status());
  }
  if (!errors.empty()) return errors.ToStatus();
  absl::StatusOr<absl::Time> start_at;
  absl::StatusOr<absl::Time> end_at;
  if (!start_datetime.empty()) {
    start_at = SupportedInstantAt(*start_civil, *zone);
    errors.AddStatus("start_datetime", start_at.status());
  }
  if (!end_datetime.empty()) {
    end_at = SupportedInstantAt(*end_civil, *zone);
    errors.AddStatus("end_datetime", end_at.status());
  }
  if (!errors.empty()) return errors.ToStatus();

  TimeRange range;
  if (end_datetime.empty()) {
    range.asked_end = clock.Now(wall_now);
    range.end = range.asked_end;  // now is exclusive
  } else {
    range.asked_end = *end_at;
    // Stored instants have microsecond precision.
    range.end = end_is == EndIs::kInclusive
                    ? range.asked_end + absl::Microseconds(1)
                    : range.asked_end;
  }
  range.end = clock.CutEnd(range.end);
  if (start_datetime.empty()) {
    // The session open of the trading day the window ends on, after the
    // backtest clock cut it.
    const absl::Time last = std::min(range.asked_end, range.end);
    range.asked_start = std::min(SessionOpen(TradingDay(last)), last);
  } else {
    range.asked_start = *start_at;
    if (auto allowed = clock.CheckBefore(range.asked_start, "start_datetime");
        !allowed.ok()) {
      return allowed;
    }
    if (range.asked_start > range.asked_end) {
      return InvalidField(
          "start_datetime",
          absl::StrCat("must not be after end_datetime",
                       end_datetime.empty() ? " (default: now)" : "", "; got ",
                       FormatInstant(range.asked_start), " after ",
                       FormatInstant(range.asked_end)));
    }
  }
  range.start = std::min(range.asked_start, range.end);
  return range;
}

}  // namespace mdc::domain
