// The market history retention (MDC_RETENTION_MONTHS): which trading days
// a bound of whole months keeps. The history is partitioned by calendar
// month of the trading day (migration 0010), so the bound always falls on
// the first day of a month and whole partitions are dropped.
#ifndef MDC_DOMAIN_RETENTION_H_
#define MDC_DOMAIN_RETENTION_H_

#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace mdc::domain {

// How many months ahead of the current one the maintenance keeps
// partitions ready, so that the month change never lands writes in the
// DEFAULT partition even if the maintenance stops for a while.
inline constexpr int kPartitionMonthsAhead = 3;

// The first trading day kept when `months` (1 or more) whole months are
// kept before the current month (Asia/Kolkata) of `now`: the first day of
// the month `months` months before it. Every row is then kept at least
// `months` months, and at most `months` + 1.
absl::CivilDay RetentionStart(absl::Time now, int months);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_RETENTION_H_
