// The holiday calendar (table holidays).
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_HOLIDAY_REPOSITORY_H_
#define MDC_STORAGE_HOLIDAY_REPOSITORY_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "domain/calendar.h"
#include "storage/pool.h"

namespace mdc::storage {

class HolidayRepository {
 public:
  explicit HolidayRepository(ConnectionPool& pool) : pool_(pool) {}

  // Entries of one calendar year, ascending.
  absl::StatusOr<std::vector<domain::CalendarEntry>> ListYear(int year);

  // The entry of `day`, if any.
  absl::StatusOr<std::optional<domain::CalendarEntry>> Find(absl::CivilDay day);

  // Inserts every entry or none. Returns ALREADY_EXISTS naming the dates
  // already in the calendar, with reason HOLIDAY_EXISTS. Entries must have
  // distinct dates (domain::ValidateCalendarEntries ensures it).
  absl::Status CreateAll(const std::vector<domain::CalendarEntry>& entries);

  // Deletes the entries of `days`; returns the dates that existed,
  // ascending.
  absl::StatusOr<std::vector<absl::CivilDay>> Delete(
      const std::vector<absl::CivilDay>& days);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_HOLIDAY_REPOSITORY_H_
