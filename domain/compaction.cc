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

}  // namespace mdc::domain
