// The rules of compacting closed trading days (docs/architecture.md,
// "Compacted history"): which days a request or the maintenance may
// compact. Only closed days: today's (Asia/Kolkata) quotes are still being
// written, and a future day has none.
#ifndef MDC_DOMAIN_COMPACTION_H_
#define MDC_DOMAIN_COMPACTION_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

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

// Where a stock quote batch may end early: at the start of a slot of two
// minutes of the clock, once it holds kBatchSlotMinQuotes quotes. A page of
// a day (exports, replay) reads the batches under way at its instant, one
// per symbol, so this bounds what it decodes at once for the symbols quoted
// often: at a quote a second, 120 to 239 quotes a symbol instead of up to
// 1,000; a symbol quoted rarely still fills its batches (compression needs
// the quotes; docs/architecture.md, "Compacted history").
inline constexpr int64_t kBatchSlotMicros = int64_t{120} * 1000 * 1000;
inline constexpr size_t kBatchSlotMinQuotes = 120;

// Where the batches of one symbol's quotes of a day begin and end
// ([first, last) into `instants`, ascending microseconds): a new batch at
// every `max_quotes` quotes, and at the first quote of a new slot of
// `slot_micros` (slots counted from the Unix epoch, so the same for every
// symbol) once the batch holds `slot_min_quotes`. Empty for no quotes.
std::vector<std::pair<size_t, size_t>> BatchBounds(
    const std::vector<int64_t>& instants, size_t max_quotes,
    int64_t slot_micros, size_t slot_min_quotes);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_COMPACTION_H_
