// Which minutes of a trading day's session hold market records, per stock
// symbol, for NIFTY 50 and per shortlist (the dashboard's coverage view).
//
// Each read is one statement over the day's partition of one table, served
// by the (trading_day, observed_at, ...) indexes; the per-minute bits are
// OR-ed in the database, so a day of ~750,000 quotes answers one row per
// symbol, not per quote.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_COVERAGE_REPOSITORY_H_
#define MDC_STORAGE_COVERAGE_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

// The records of one series (a symbol, NIFTY, a shortlist) on one day.
struct SeriesMinutes {
  // Stock quotes: the symbol. Shortlists: the type and the scope as stored
  // ("TOP_GAINERS", "TOP_5"). NIFTY: empty.
  std::string key;
  std::string key2;
  int64_t records = 0;   // of the whole day, outside the session too
  absl::Time last_time;  // the latest record's instant
  // Character i is '1' when session minute i holds a record; empty when no
  // record falls in the session.
  std::string minute_bits;
};

// The session a read covers: `minutes` whole minutes from `open`.
struct SessionMinutesSpec {
  absl::Time open;
  int minutes = 0;
};

class CoverageRepository {
 public:
  explicit CoverageRepository(ConnectionPool& pool) : pool_(pool) {}

  // The latest trading day, at or before `last_day`, with a stock quote,
  // NIFTY quote or shortlist stamped before `before`; none when nothing is
  // stored.
  absl::StatusOr<std::optional<absl::CivilDay>> LatestDay(
      absl::CivilDay last_day, absl::Time before);

  // The stock quotes of `day` stamped before `before`, per symbol, in byte
  // order of the symbols.
  absl::StatusOr<std::vector<SeriesMinutes>> QuoteMinutes(
      absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before);

  // The NIFTY quotes of `day`; none when there are none.
  absl::StatusOr<std::optional<SeriesMinutes>> NiftyMinutes(
      absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before);

  // The shortlist snapshots of `day`, per type and scope, in byte order.
  absl::StatusOr<std::vector<SeriesMinutes>> ShortlistMinutes(
      absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_COVERAGE_REPOSITORY_H_
