#include "storage/holiday_repository.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "domain/error_reason.h"
#include "domain/time.h"

namespace mdc::storage {
namespace {

constexpr Statement kListYear{
    "holidays_list_year",
    "SELECT holiday_date, name, session_open, session_close FROM holidays "
    "WHERE holiday_date >= $1 AND holiday_date < $2 ORDER BY holiday_date"};
constexpr Statement kFindHoliday{
    "holidays_find",
    "SELECT holiday_date, name, session_open, session_close FROM holidays "
    "WHERE holiday_date = $1"};
constexpr Statement kExisting{
    "holidays_existing",
    "SELECT holiday_date FROM holidays WHERE holiday_date = ANY($1) "
    "ORDER BY holiday_date"};
constexpr Statement kInsert{
    "holidays_insert",
    "INSERT INTO holidays (holiday_date, name, session_open, session_close) "
    "VALUES ($1, $2, $3, $4)"};
constexpr Statement kDeleteHolidays{
    "holidays_delete",
    "DELETE FROM holidays WHERE holiday_date = ANY($1) RETURNING holiday_date"};

constexpr Oid kPgTimeOid = 1083;

domain::CalendarEntry ReadEntry(const Result& r, int row) {
  domain::CalendarEntry e;
  e.date = r.Date(row, 0);
  e.name = r.String(row, 1);
  if (!r.IsNull(row, 2)) e.session_open = r.TimeOfDay(row, 2);
  if (!r.IsNull(row, 3)) e.session_close = r.TimeOfDay(row, 3);
  return e;
}

// The refusal of a create that meets stored dates (YYYY-MM-DD): their list
// is also in the reason's metadata, for a client that retries without them.
absl::Status HolidayExists(const std::vector<std::string>& dates) {
  return domain::WithReason(
      absl::AlreadyExistsError(
          absl::StrCat("already in the calendar: ", absl::StrJoin(dates, ", "),
                       "; nothing was created")),
      domain::reason::kHolidayExists, {{"dates", absl::StrJoin(dates, ",")}});
}

}  // namespace

absl::StatusOr<std::vector<domain::CalendarEntry>> HolidayRepository::ListYear(
    int year) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kListYear, Params()
                                   .Date(absl::CivilDay(year, 1, 1))
                                   .Date(absl::CivilDay(year + 1, 1, 1)));
  if (!result.ok()) return result.status();
  std::vector<domain::CalendarEntry> entries;
  for (int row = 0; row < result->rows(); ++row) {
    entries.push_back(ReadEntry(*result, row));
  }
  return entries;
}

absl::StatusOr<std::optional<domain::CalendarEntry>> HolidayRepository::Find(
    absl::CivilDay day) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFindHoliday, Params().Date(day));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<domain::CalendarEntry>();
  return std::optional<domain::CalendarEntry>(ReadEntry(*result, 0));
}

absl::Status HolidayRepository::CreateAll(
    const std::vector<domain::CalendarEntry>& entries) {
  std::vector<absl::CivilDay> days;
  for (const auto& e : entries) days.push_back(e.date);
  auto insert_all = [&](Connection& conn) -> absl::Status {
    auto existing = conn.Exec(kExisting, Params().DateArray(days));
    if (!existing.ok()) return existing.status();
    if (existing->rows() > 0) {
      std::vector<std::string> taken;
      for (int row = 0; row < existing->rows(); ++row) {
        taken.push_back(domain::FormatDate(existing->Date(row, 0)));
      }
      return HolidayExists(taken);
    }
    for (const auto& e : entries) {
      Params params;
      params.Date(e.date).Text(e.name);
      if (e.special_session()) {
        params.TimeOfDay(*e.session_open).TimeOfDay(*e.session_close);
      } else {
        params.Null(kPgTimeOid).Null(kPgTimeOid);
      }
      auto inserted = conn.Exec(kInsert, params);
      if (!inserted.ok()) {
        if (inserted.status().code() == absl::StatusCode::kAlreadyExists) {
          return HolidayExists({domain::FormatDate(e.date)});
        }
        return inserted.status();
      }
    }
    return absl::OkStatus();
  };
  absl::Status created = pool_.InTransaction(insert_all);
  if (created.ok()) {
    pool_.observer().WriteCommitted(
        CommittedWrite{"holidays", static_cast<int64_t>(entries.size())});
  }
  return created;
}

absl::StatusOr<std::vector<absl::CivilDay>> HolidayRepository::Delete(
    const std::vector<absl::CivilDay>& days) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kDeleteHolidays, Params().DateArray(days));
  if (!result.ok()) return result.status();
  std::vector<absl::CivilDay> deleted;
  for (int row = 0; row < result->rows(); ++row) {
    deleted.push_back(result->Date(row, 0));
  }
  std::sort(deleted.begin(), deleted.end());
  return deleted;
}

}  // namespace mdc::storage
