#include "domain/calendar.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "domain/field_errors.h"
#include "domain/text.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

constexpr size_t kMaxHolidayName = 100;
constexpr int kMaxEntriesPerRequest = 366;

// "HH:MM" → minutes of the day.
std::optional<absl::CivilMinute> ParseClock(absl::string_view text) {
  int hour = 0, minute = 0;
  if (text.size() != 5 || text[2] != ':' ||
      !ParseDigits(text.substr(0, 2), &hour) ||
      !ParseDigits(text.substr(3, 2), &minute) || hour > 23 || minute > 59) {
    return std::nullopt;
  }
  return absl::CivilMinute(1970, 1, 1, hour, minute);
}

std::string FormatClock(absl::CivilMinute m) {
  return absl::StrFormat("%02d:%02d", m.hour(), m.minute());
}

void AddUnique(const CalendarEntry& entry, const std::string& path,
               absl::flat_hash_set<absl::CivilDay>& seen,
               std::vector<CalendarEntry>& out, FieldErrors& errors) {
  if (!seen.insert(entry.date).second) {
    errors.Add(path, absl::StrCat(FormatDate(entry.date),
                                  " appears more than once in this request"));
    return;
  }
  out.push_back(entry);
}

// A date of a holiday to create: YYYY-MM-DD in the calendar years.
absl::StatusOr<absl::CivilDay> ParseCalendarDate(absl::string_view text) {
  auto day = ParseDate(text);
  if (day.ok() &&
      (day->year() < kFirstCalendarYear || day->year() > kLastCalendarYear)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "must be a date in the years ", kFirstCalendarYear, "-",
        kLastCalendarYear, " (those the calendar lists); got ", text));
  }
  return day;
}

}  // namespace

DayStatus ClassifyDay(absl::CivilDay day,
                      const std::optional<CalendarEntry>& entry) {
  DayStatus status;
  if (entry.has_value()) {
    status.name = entry->name;
    if (entry->special_session()) {
      status.is_trading_day = true;
      return status;
    }
    status.is_holiday = true;
    return status;
  }
  status.is_trading_day = !IsWeekend(day);
  return status;
}

absl::StatusOr<std::vector<CalendarEntry>> ValidateCalendarEntries(
    const google::protobuf::RepeatedPtrField<v1::Holiday>& holidays,
    const google::protobuf::RepeatedPtrField<std::string>& dates) {
  FieldErrors errors;
  std::vector<CalendarEntry> entries;
  absl::flat_hash_set<absl::CivilDay> seen;
  if (holidays.empty() && dates.empty()) {
    errors.Add("holidays", "give holidays [{date, name}] or dates [...]");
  }
  if (holidays.size() + dates.size() > kMaxEntriesPerRequest) {
    errors.Add("holidays", "at most 366 dates per request");
    return errors.ToStatus();
  }
  for (int i = 0; i < holidays.size(); ++i) {
    const v1::Holiday& h = holidays[i];
    const std::string path = absl::StrCat("holidays[", i, "]");
    CalendarEntry entry;
    auto date = ParseCalendarDate(h.date());
    errors.AddStatus(path + ".date", date.status());
    if (h.name().size() > kMaxHolidayName) {
      errors.Add(path + ".name", "must be at most 100 bytes (UTF-8)");
    } else if (const auto c = FindControlOrFormatCharacter(h.name())) {
      // PostgreSQL text cannot hold NUL; no other control or invisible
      // format character belongs in a name shown on a calendar either.
      errors.Add(path + ".name", ControlOrFormatRule(*c));
    }
    entry.name = h.name();
    if (!h.session_open().empty() || !h.session_close().empty()) {
      entry.session_open = ParseClock(h.session_open());
      entry.session_close = ParseClock(h.session_close());
      if (!entry.session_open.has_value()) {
        errors.Add(path + ".sessionOpen",
                   "must be HH:MM (Asia/Kolkata) when a special session is "
                   "given");
      }
      if (!entry.session_close.has_value()) {
        errors.Add(path + ".sessionClose",
                   "must be HH:MM (Asia/Kolkata) when a special session is "
                   "given");
      }
      if (entry.session_open.has_value() && entry.session_close.has_value() &&
          *entry.session_open >= *entry.session_close) {
        errors.Add(path + ".sessionClose", "must be after sessionOpen");
      }
    }
    if (date.ok()) {
      entry.date = *date;
      AddUnique(entry, path + ".date", seen, entries, errors);
    }
  }
  for (int i = 0; i < dates.size(); ++i) {
    const std::string path = absl::StrCat("dates[", i, "]");
    auto date = ParseCalendarDate(dates[i]);
    errors.AddStatus(path, date.status());
    if (date.ok())
      AddUnique(CalendarEntry{*date, "", {}, {}}, path, seen, entries, errors);
  }
  if (!errors.empty()) return errors.ToStatus();
  return entries;
}

absl::StatusOr<std::vector<absl::CivilDay>> ValidateDateList(
    const google::protobuf::RepeatedPtrField<std::string>& dates) {
  FieldErrors errors;
  std::vector<absl::CivilDay> days;
  absl::flat_hash_set<absl::CivilDay> seen;
  if (dates.empty()) errors.Add("dates", "is required: at least one date");
  if (dates.size() > kMaxEntriesPerRequest) {
    errors.Add("dates", "at most 366 dates per request");
    return errors.ToStatus();
  }
  for (int i = 0; i < dates.size(); ++i) {
    const std::string path = absl::StrCat("dates[", i, "]");
    auto day = ParseDate(dates[i]);
    errors.AddStatus(path, day.status());
    if (!day.ok()) continue;
    if (!seen.insert(*day).second) {
      errors.Add(path, "appears more than once in this request");
      continue;
    }
    days.push_back(*day);
  }
  if (!errors.empty()) return errors.ToStatus();
  return days;
}

void ToProto(const CalendarEntry& entry, v1::Holiday* out) {
  out->set_date(FormatDate(entry.date));
  out->set_name(entry.name);
  if (entry.special_session()) {
    out->set_session_open(FormatClock(*entry.session_open));
    out->set_session_close(FormatClock(*entry.session_close));
  }
}

}  // namespace mdc::domain
