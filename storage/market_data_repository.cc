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

}  // namespace

absl::StatusOr<std::vector<DataDateCounts>> MarketDataRepository::ListDates() {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListDates);
  if (!result.ok()) return result.status();
  std::vector<DataDateCounts> dates;
  dates.reserve(result->rows());
  for (int row = 0; row < result->rows(); ++row) {
    dates.push_back({result->Date(row, 0), result->Int64(row, 1),
                     result->Int64(row, 2), result->Int64(row, 3)});
  }
  return dates;
}

}  // namespace mdc::storage
