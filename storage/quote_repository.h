// Stock quotes, keyed by (symbol, instant).
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_QUOTE_REPOSITORY_H_
#define MDC_STORAGE_QUOTE_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "domain/candles.h"
#include "domain/observations.h"
#include "mdc/v1/market.pb.h"
#include "storage/developer_repository.h"
#include "storage/pool.h"

namespace mdc::storage {

class QuoteRepository {
 public:
  explicit QuoteRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts every quote of the batch, replacing any stored at the same
  // (symbol, instant), in one statement: all or none. Symbols in a batch
  // must be distinct (domain::ValidateQuotes ensures it).
  // Written by the developer holding the token whose hash is given: returns
  // that developer, or none (and writes nothing) when no developer holds it.
  // `done` gets the answer once it is committed, on a storage thread.
  void UpsertBatch(const domain::QuoteBatch& batch,
                   const std::string& token_hash, DeveloperCallback done);

  // The latest quote of `symbol` stamped in [not_before, at].
  absl::StatusOr<std::optional<v1::StockQuote>> FindLatest(
      const std::string& symbol, absl::Time not_before, absl::Time at);

  // Up to `limit` quotes of `symbol` stamped in [start, end) and after
  // `after` when given, ascending: one page of a keyset read.
  absl::StatusOr<std::vector<v1::StockQuote>> ListRange(
      const std::string& symbol, absl::Time start, absl::Time end,
      std::optional<absl::Time> after, int limit);

  // As ListRange, only the priced quotes and only what candles need.
  absl::StatusOr<std::vector<domain::PricePoint>> PricePoints(
      const std::string& symbol, absl::Time start, absl::Time end,
      std::optional<absl::Time> after, int limit);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_QUOTE_REPOSITORY_H_
