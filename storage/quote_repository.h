// Stock quotes, keyed by (symbol, instant).
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_QUOTE_REPOSITORY_H_
#define MDC_STORAGE_QUOTE_REPOSITORY_H_

#include <cstdint>

#include "absl/status/status.h"
#include "service/domain/observations.h"
#include "storage/pool.h"

namespace mdc::storage {

class QuoteRepository {
 public:
  explicit QuoteRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts every quote of the batch, replacing any stored at the same
  // (symbol, instant), in one statement: all or none. Symbols in a batch
  // must be distinct (domain::ValidateQuotes ensures it).
  absl::Status UpsertBatch(const domain::QuoteBatch& batch, int64_t writer_id);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_QUOTE_REPOSITORY_H_
