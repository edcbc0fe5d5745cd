// NIFTY 50 quotes, keyed by instant.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_NIFTY_REPOSITORY_H_
#define MDC_STORAGE_NIFTY_REPOSITORY_H_

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "mdc/v1/market.pb.h"
#include "service/domain/observations.h"
#include "storage/pool.h"

namespace mdc::storage {

class NiftyRepository {
 public:
  explicit NiftyRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts the quote or replaces the one at the same instant.
  absl::Status Upsert(const domain::NiftyObservation& nifty, int64_t writer_id);

  // The latest quote stamped in [not_before, at].
  absl::StatusOr<std::optional<v1::NiftyQuote>> FindLatest(
      absl::Time not_before, absl::Time at);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_NIFTY_REPOSITORY_H_
