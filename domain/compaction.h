// The rules of compacting closed trading days (docs/architecture.md,
// "Compacted history"): which days a request or the maintenance may
// compact. Only closed days: today's (Asia/Kolkata) quotes are still being
// written, and a future day has none.
#ifndef MDC_DOMAIN_COMPACTION_H_
#define MDC_DOMAIN_COMPACTION_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The most MDC_COMPACT_AFTER_DAYS may be: ten years.
inline constexpr int kMaxCompactAfterDays = 3660;

// `through` of a compaction request (YYYY-MM-DD): the last trading day to
// compact, which must be before today's trading day at `now`.
// INVALID_ARGUMENT naming `field` when it is missing, malformed or not
// closed yet.
absl::StatusOr<absl::CivilDay> ParseCompactThrough(absl::string_view through,
                                                   absl::Time now,
                                                   absl::string_view field);

// The last day the maintenance compacts at `now`: the trading day
// `after_days` before today's. None when `after_days` is 0 (compaction off).
std::optional<absl::CivilDay> AutoCompactThrough(absl::Time now,
                                                 int after_days);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_COMPACTION_H_
