// The exchange calendar: which days trade. Weekends and holidays are closed;
// a holiday entry with session times instead marks a special session on a
// day that is otherwise closed (Muhurat trading), which then trades.
#ifndef MDC_DOMAIN_CALENDAR_H_
#define MDC_DOMAIN_CALENDAR_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

// One entry of the holiday calendar, validated.
struct CalendarEntry {
  absl::CivilDay date;
  std::string name;
  // Both set for a special session (Asia/Kolkata wall clock), else neither.
  std::optional<absl::CivilMinute> session_open;
  std::optional<absl::CivilMinute> session_close;

  bool special_session() const { return session_open.has_value(); }
};

struct DayStatus {
  bool is_holiday = false;
  std::string name;
  bool is_trading_day = false;
};

// How `day` trades given its calendar entry, if any.
DayStatus ClassifyDay(absl::CivilDay day,
                      const std::optional<CalendarEntry>& entry);

// The years the calendar holds: holiday listings take them, and a holiday
// is created only inside them (a date outside could never be listed).
inline constexpr int kFirstCalendarYear = 1900;
inline constexpr int kLastCalendarYear = 2200;

// Validates the holidays of a create request: `holidays` (with names and
// optional session times) and/or bare `dates`. A date given twice is an
// error, and so is a date outside the calendar years. Field paths:
// holidays[i].date, dates[i], ...
absl::StatusOr<std::vector<CalendarEntry>> ValidateCalendarEntries(
    const google::protobuf::RepeatedPtrField<v1::Holiday>& holidays,
    const google::protobuf::RepeatedPtrField<std::string>& dates);

// Parses the dates of a delete request (field `dates[i]`), at least one,
// each once.
absl::StatusOr<std::vector<absl::CivilDay>> ValidateDateList(
    const google::protobuf::RepeatedPtrField<std::string>& dates);

// The calendar entry as the API shows it.
void ToProto(const CalendarEntry& entry, v1::Holiday* out);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_CALENDAR_H_
