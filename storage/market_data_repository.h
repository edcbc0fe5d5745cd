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

class MarketDataRepository {
 public:
  explicit MarketDataRepository(ConnectionPool& pool) : pool_(pool) {}

  // Every trading day holding any market data, ascending, with row counts.
  absl::StatusOr<std::vector<DataDateCounts>> ListDates();

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MARKET_DATA_REPOSITORY_H_
