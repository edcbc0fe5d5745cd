#include "domain/day_reads.h"

#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<absl::Time> DayReadLimit(absl::CivilDay day,
                                        const BacktestClock& clock) {
  if (auto allowed = clock.CheckBefore(DayStart(day), "date"); !allowed.ok()) {
    return allowed;
  }
  return clock.LatestVisible(DayStart(day + 1) - absl::Microseconds(1));
}

}  // namespace mdc::domain
