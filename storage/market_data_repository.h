// Market data across kinds, by trading day: what admins list and delete.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_MARKET_DATA_REPOSITORY_H_
#define MDC_STORAGE_MARKET_DATA_REPOSITORY_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "storage/pool.h"

namespace mdc::storage {

struct DataDateCounts {
  absl::CivilDay day;
  int64_t shortlists = 0;
  int64_t quotes = 0;
  int64_t nifty_quotes = 0;
};

// Rows deleted (or, for a dry run, that would be) per kind.
struct DataCounts {
  int64_t shortlists = 0;
  int64_t quotes = 0;
  int64_t nifty_quotes = 0;
  int64_t total() const { return shortlists + quotes + nifty_quotes; }
};

class MarketDataRepository {
 public:
  explicit MarketDataRepository(ConnectionPool& pool) : pool_(pool) {}

  // Every trading day holding any market data, ascending, with row counts.
  absl::StatusOr<std::vector<DataDateCounts>> ListDates();

  // Deletes every shortlist snapshot, stock quote and NIFTY quote of the
  // given trading days, in one transaction. Developers, holidays, runs and
  // orders are not touched. A month given whole has its partitions
  // truncated; other days are deleted within their month's partition.
  absl::StatusOr<DataCounts> DeleteDays(
      const std::vector<absl::CivilDay>& days);

  // Deletes (or, with `dry_run`, only counts) all market data of trading
  // days before `day`, in one transaction: the partitions of months before
  // `day`'s are dropped whole.
  absl::StatusOr<DataCounts> PurgeBefore(absl::CivilDay day, bool dry_run);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MARKET_DATA_REPOSITORY_H_
