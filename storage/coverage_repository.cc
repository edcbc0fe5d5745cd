#include "storage/coverage_repository.h"

#include <utility>

#include "storage/compacted_nifty.h"
#include "storage/compacted_quotes.h"

namespace mdc::storage {
namespace {

// The minute bits of a group's rows: $2 is the session's open, $3 its
// minutes; bit i is set for a record in [open + i min, open + (i + 1) min).
// Rows outside the session take no part (FILTER), and the bit number is
// clamped so that no row can make set_bit fail. NULL when no row is in the
// session.
#define MDC_MINUTE_BITS                                           \
  "(bit_or(set_bit(repeat('0', $3)::varbit, "                     \
  "greatest(0, least($3 - 1, "                                    \
  "floor(extract(epoch FROM observed_at - $2) / 60)::int)), 1)) " \
  "FILTER (WHERE observed_at >= $2 "                              \
  "AND observed_at < $2 + make_interval(mins => $3)))::text"

// Every statement answers (key, records, last instant, bits, key2).
// Each table's rows of one trading day are one range of its
// (trading_day, observed_at, ...) index; the aggregate keeps one bit string
// per group, not the rows.
constexpr Statement kQuoteMinutes{
    "coverage_quote_minutes",
    "SELECT nse_symbol, count(*), max(observed_at), " MDC_MINUTE_BITS
    ", '' FROM stock_quotes WHERE trading_day = $1 AND observed_at < $4 "
    "GROUP BY nse_symbol ORDER BY nse_symbol COLLATE \"C\""};

constexpr Statement kNiftyMinutes{
    "coverage_nifty_minutes",
    "SELECT '', count(*), max(observed_at), " MDC_MINUTE_BITS
    ", '' FROM nifty_quotes WHERE trading_day = $1 AND observed_at < $4 "
    "HAVING count(*) > 0"};

constexpr Statement kShortlistMinutes{
    "coverage_shortlist_minutes",
    "SELECT shortlist_type, count(*), max(observed_at), " MDC_MINUTE_BITS
    ", scope FROM shortlist_snapshots "
    "WHERE trading_day = $1 AND observed_at < $4 "
    "GROUP BY shortlist_type, scope "
    "ORDER BY shortlist_type COLLATE \"C\", scope COLLATE \"C\""};

#undef MDC_MINUTE_BITS

// Each max() is one backward step of its table's (trading_day, ...) index
// from `last_day` ($1), skipping rows stamped at or after $2 (a backtest
// clock within the day).
constexpr Statement kLatestDay{
    "coverage_latest_day",
    "SELECT max(d) FROM ("
    "SELECT max(trading_day) AS d FROM stock_quotes "
    "WHERE trading_day <= $1 AND observed_at < $2 UNION ALL "
    // A compacted day has a quote before $2 when its first batch does.
    "SELECT max(trading_day) FROM stock_quote_batches "
    "WHERE trading_day <= $1 AND first_observed_at < $2 UNION ALL "
    "SELECT max(trading_day) FROM nifty_quotes "
    "WHERE trading_day <= $1 AND observed_at < $2 UNION ALL "
    "SELECT max(trading_day) FROM nifty_quote_batches "
    "WHERE trading_day <= $1 AND first_observed_at < $2 UNION ALL "
    "SELECT max(trading_day) FROM shortlist_snapshots "
    "WHERE trading_day <= $1 AND observed_at < $2) days"};

absl::StatusOr<std::vector<SeriesMinutes>> ReadMinutes(
    ConnectionPool& pool, const Statement& statement, absl::CivilDay day,
    const SessionMinutesSpec& session, absl::Time before) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  Params params;
  params.Date(day).Time(session.open).Int32(session.minutes).Time(before);
  // The stock and NIFTY quotes have a compacted form.
  auto result =
      &statement == &kQuoteMinutes
          ? ExecSeeingCompactedQuotes(
                **conn, statement, std::move(params),
                CompactedFilter{day, day, std::nullopt, std::nullopt, before})
      : &statement == &kNiftyMinutes
          ? ExecSeeingCompactedNifty(
                **conn, statement, std::move(params),
                CompactedNiftyFilter{day, day, std::nullopt, before})
          : (*conn)->Exec(statement, params);
  if (!result.ok()) return result.status();
  std::vector<SeriesMinutes> series;
  series.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    SeriesMinutes s;
    s.key = result->String(row, 0);
    s.records = result->Int64(row, 1);
    s.last_time = result->Time(row, 2);
    if (!result->IsNull(row, 3)) s.minute_bits = result->String(row, 3);
    s.key2 = result->String(row, 4);
    series.push_back(std::move(s));
  }
  return series;
}

}  // namespace

absl::StatusOr<std::optional<absl::CivilDay>> CoverageRepository::LatestDay(
    absl::CivilDay last_day, absl::Time before) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kLatestDay, Params().Date(last_day).Time(before));
  if (!result.ok()) return result.status();
  if (result->rows() == 0 || result->IsNull(0, 0)) return std::nullopt;
  return result->Date(0, 0);
}

absl::StatusOr<std::vector<SeriesMinutes>> CoverageRepository::QuoteMinutes(
    absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before) {
  return ReadMinutes(pool_, kQuoteMinutes, day, session, before);
}

absl::StatusOr<std::optional<SeriesMinutes>> CoverageRepository::NiftyMinutes(
    absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before) {
  auto series = ReadMinutes(pool_, kNiftyMinutes, day, session, before);
  if (!series.ok()) return series.status();
  if (series->empty()) return std::nullopt;
  return std::move(series->front());
}

absl::StatusOr<std::vector<SeriesMinutes>> CoverageRepository::ShortlistMinutes(
    absl::CivilDay day, const SessionMinutesSpec& session, absl::Time before) {
  return ReadMinutes(pool_, kShortlistMinutes, day, session, before);
}

}  // namespace mdc::storage
