// Trading-day bounds for reads by instant. The market tables are
// partitioned by trading_day (migration 0010), which the server computes
// from observed_at (domain::TradingDay). A read by instant that also says
// `trading_day BETWEEN TradingDayFrom(start) AND TradingDayTo(end)` selects
// the same rows, and PostgreSQL skips every partition outside those days
// instead of probing each month's index.
#ifndef MDC_STORAGE_TRADING_DAY_BOUNDS_H_
#define MDC_STORAGE_TRADING_DAY_BOUNDS_H_

#include <algorithm>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/time.h"

namespace mdc::storage {

// Within years 1 to 99999, so that even an unbounded instant makes a date
// PostgreSQL takes; no stored trading day lies outside them.
inline absl::CivilDay ClampedTradingDay(absl::Time t) {
  return std::clamp(domain::TradingDay(t), absl::CivilDay(1, 1, 1),
                    absl::CivilDay(99999, 12, 31));
}

// The first trading day an instant at or after `start` can have.
inline absl::CivilDay TradingDayFrom(absl::Time start) {
  return ClampedTradingDay(start);
}

// The last trading day an instant at or before `end` can have.
inline absl::CivilDay TradingDayTo(absl::Time end) {
  return ClampedTradingDay(end);
}

// The first and last day of the monthly partitions (migration 0010) that
// hold the trading days `first` to `last`. A scan that must read an index
// in key order across days (the distinct symbols of a range) bounds
// trading_day by these instead: every entry of those partitions passes, so
// the scan reads no entry only to drop it, and the partitions of other
// months are still skipped. Its rows are a superset of the days'.
inline absl::CivilDay PartitionFrom(absl::CivilDay first) {
  return absl::CivilDay(absl::CivilMonth(first));
}
inline absl::CivilDay PartitionTo(absl::CivilDay last) {
  return absl::CivilDay(absl::CivilMonth(last) + 1) - 1;
}

}  // namespace mdc::storage

#endif  // MDC_STORAGE_TRADING_DAY_BOUNDS_H_
