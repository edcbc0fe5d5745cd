// NIFTY 50 quotes, keyed by instant.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_NIFTY_REPOSITORY_H_
#define MDC_STORAGE_NIFTY_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "domain/candles.h"
#include "domain/observations.h"
#include "mdc/v1/market.pb.h"
#include "storage/developer_repository.h"
#include "storage/pool.h"

namespace mdc::storage {

class NiftyRepository {
 public:
  explicit NiftyRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts the quote or replaces the one at the same instant.
  // Written by the developer holding the token whose hash is given: returns
  // that developer, or none (and writes nothing) when no developer holds it.
  // `done` gets the answer once it is committed, on a storage thread.
  void Upsert(const domain::NiftyObservation& nifty,
              const std::string& token_hash, DeveloperCallback done);

  // The latest quote stamped in [not_before, at].
  absl::StatusOr<std::optional<v1::NiftyQuote>> FindLatest(
      absl::Time not_before, absl::Time at);

  // Up to `limit` quotes stamped in [start, end) and after `after` when
  // given, ascending: one page of a keyset read.
  absl::StatusOr<std::vector<v1::NiftyQuote>> ListRange(
      absl::Time start, absl::Time end, std::optional<absl::Time> after,
      int limit);

  // As ListRange, only the priced quotes and only what candles need.
  absl::StatusOr<std::vector<domain::PricePoint>> PricePoints(
      absl::Time start, absl::Time end, std::optional<absl::Time> after,
      int limit);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_NIFTY_REPOSITORY_H_
