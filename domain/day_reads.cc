#include "domain/day_reads.h"

#include <algorithm>

#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<absl::Time> DayReadLimit(absl::CivilDay day,
                                        const BacktestClock& clock) {
  if (auto allowed = clock.CheckBefore(DayStart(day), "date"); !allowed.ok()) {
    return allowed;
  }
  return clock.LatestVisible(DayStart(day + 1) - absl::Microseconds(1));
}

TimeWindow SessionReadWindow(absl::CivilDay day, absl::Time limit) {
  return TimeWindow{SessionOpen(day),
                    std::min(SessionClose(day), limit + absl::Microseconds(1))};
}

}  // namespace mdc::domain
