#include "domain/retention.h"

#include "domain/time.h"

namespace mdc::domain {

absl::CivilDay RetentionStart(absl::Time now, int months) {
  const absl::CivilMonth this_month(TradingDay(now));
  return absl::CivilDay(this_month - months);
}

}  // namespace mdc::domain
