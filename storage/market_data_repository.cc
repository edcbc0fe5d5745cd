#include "storage/market_data_repository.h"

namespace mdc::storage {
namespace {

constexpr Statement kListDates{
    "market_data_list_dates",
    "SELECT day, sum(shortlists)::int8, sum(quotes)::int8, sum(nifty)::int8 "
    "FROM ("
    "  SELECT trading_day AS day, count(*) AS shortlists, 0 AS quotes, "
    "         0 AS nifty FROM shortlist_snapshots GROUP BY trading_day"
    "  UNION ALL SELECT trading_day, 0, count(*), 0 FROM stock_quotes "
    "         GROUP BY trading_day"
    "  UNION ALL SELECT trading_day, 0, 0, count(*) FROM nifty_quotes "
    "         GROUP BY trading_day"
    ") AS per_kind GROUP BY day ORDER BY day"};

constexpr Statement kDeleteShortlistDays{
    "market_data_delete_shortlist_days",
    "DELETE FROM shortlist_snapshots WHERE trading_day = ANY($1)"};
constexpr Statement kDeleteQuoteDays{
    "market_data_delete_quote_days",
    "DELETE FROM stock_quotes WHERE trading_day = ANY($1)"};
constexpr Statement kDeleteNiftyDays{
    "market_data_delete_nifty_days",
    "DELETE FROM nifty_quotes WHERE trading_day = ANY($1)"};

constexpr Statement kPurgeShortlists{
    "market_data_purge_shortlists",
    "DELETE FROM shortlist_snapshots WHERE trading_day < $1"};
constexpr Statement kPurgeQuotes{
    "market_data_purge_quotes",
    "DELETE FROM stock_quotes WHERE trading_day < $1"};
constexpr Statement kPurgeNifty{
    "market_data_purge_nifty",
    "DELETE FROM nifty_quotes WHERE trading_day < $1"};
constexpr Statement kCountBefore{
    "market_data_count_before",
    "SELECT (SELECT count(*) FROM shortlist_snapshots WHERE trading_day < $1),"
    "       (SELECT count(*) FROM stock_quotes WHERE trading_day < $1),"
    "       (SELECT count(*) FROM nifty_quotes WHERE trading_day < $1)"};

// Runs the three per-kind deletes in one transaction.
absl::StatusOr<DataCounts> DeleteEachKind(ConnectionPool &pool,
                                          const Statement &shortlists,
                                          const Statement &quotes,
                                          const Statement &nifty,
                                          const Params &params) {
  DataCounts counts;
  absl::Status status = pool.InTransaction([&](Connection &conn) {
    struct Step {
      const Statement &statement;
      int64_t *count;
    };
    for (const Step &step :
         {Step{shortlists, &counts.shortlists}, Step{quotes, &counts.quotes},
          Step{nifty, &counts.nifty_quotes}}) {
      auto deleted = conn.Exec(step.statement, params);
      if (!deleted.ok())
        return deleted.status();
      *step.count = deleted->affected_rows();
    }
    return absl::OkStatus();
  });
  if (!status.ok())
    return status;
  return counts;
}

} // namespace

absl::StatusOr<DataCounts>
MarketDataRepository::DeleteDays(const std::vector<absl::CivilDay> &days) {
  return DeleteEachKind(pool_, kDeleteShortlistDays, kDeleteQuoteDays,
                        kDeleteNiftyDays, Params().DateArray(days));
}

absl::StatusOr<DataCounts> MarketDataRepository::PurgeBefore(absl::CivilDay day,
                                                             bool dry_run) {
  if (!dry_run) {
    return DeleteEachKind(pool_, kPurgeShortlists, kPurgeQuotes, kPurgeNifty,
                          Params().Date(day));
  }
  auto conn = pool_.Acquire();
  if (!conn.ok())
    return conn.status();
  auto counted = (*conn)->Exec(kCountBefore, Params().Date(day));
  if (!counted.ok())
    return counted.status();
  DataCounts counts;
  counts.shortlists = counted->Int64(0, 0);
  counts.quotes = counted->Int64(0, 1);
  counts.nifty_quotes = counted->Int64(0, 2);
  return counts;
}

absl::StatusOr<std::vector<DataDateCounts>> MarketDataRepository::ListDates() {
  auto conn = pool_.Acquire();
  if (!conn.ok())
    return conn.status();
  auto result = (*conn)->Exec(kListDates);
  if (!result.ok())
    return result.status();
  std::vector<DataDateCounts> dates;
  dates.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    dates.push_back({result->Date(row, 0), result->Int64(row, 1),
                     result->Int64(row, 2), result->Int64(row, 3)});
  }
  return dates;
}

} // namespace mdc::storage
