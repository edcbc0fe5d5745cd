#include "domain/compaction.h"

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<absl::CivilDay> ParseCompactThrough(absl::string_view through,
                                                   absl::Time now,
                                                   absl::string_view field) {
  if (through.empty()) {
    return InvalidField(field,
                        "is required: the last trading day to compact "
                        "(YYYY-MM-DD), before today");
  }
  auto day = ParseDate(through);
  if (!day.ok()) {
    return InvalidField(field, day.status().message());
  }
  const absl::CivilDay today = TradingDay(now);
  if (*day >= today) {
    return InvalidField(
        field, absl::StrCat("must be a closed trading day, before today (",
                            FormatDate(today),
                            " in Asia/Kolkata): an open or future day is "
                            "still being written"));
  }
  return *day;
}

std::optional<absl::CivilDay> AutoCompactThrough(absl::Time now,
                                                 int after_days) {
  if (after_days <= 0) return std::nullopt;
  return TradingDay(now) - after_days;
}

std::vector<std::pair<size_t, size_t>> BatchBounds(
    const std::vector<int64_t>& instants, size_t max_quotes,
    int64_t slot_micros, size_t slot_min_quotes) {
  std::vector<std::pair<size_t, size_t>> bounds;
  // Floor division: instants before the epoch fall in the slot below.
  auto slot_of = [slot_micros](int64_t t) {
    return t / slot_micros - (t % slot_micros < 0 ? 1 : 0);
  };
  size_t first = 0;
  for (size_t i = 1; i <= instants.size(); ++i) {
    if (i == instants.size() || i - first >= max_quotes ||
        (i - first >= slot_min_quotes &&
         slot_of(instants[i]) != slot_of(instants[i - 1]))) {
      bounds.emplace_back(first, i);
      first = i;
    }
  }
  return bounds;
}

}  // namespace mdc::domain
