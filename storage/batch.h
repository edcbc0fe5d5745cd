// One batch of statements on one connection: the execution the batchers
// (batcher.h, async_batcher.h) share. One round trip for all statements
// (libpq pipeline mode) and, for writes, one transaction with one commit
// (group commit), so the WAL flush a commit waits for is shared by every
// write of the batch.
//
// A write that fails fails alone: when one statement of a write batch fails
// (a merged one included), the batch rolls back and every query of it runs
// again on its own, in order, so the others still commit and the failing one
// reports its own error. A failed read does not sink the others either.
#ifndef MDC_STORAGE_BATCH_H_
#define MDC_STORAGE_BATCH_H_

#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "storage/pg.h"

namespace mdc::storage {

class ConnectionPool;

// What an asynchronous caller hears once its statement ran: its result, or
// why it failed. Called exactly once, on a storage thread.
using ResultCallback = absl::AnyInvocable<void(absl::StatusOr<Result>) &&>;

enum class BatchMode {
  kRead,   // one implicit transaction per batch, nothing to commit
  kWrite,  // BEGIN, the statements, COMMIT
};

struct BatchResults {
  // One per query, in order.
  std::vector<absl::StatusOr<Result>> results;
  // SQL statements run for the queries, BEGIN and COMMIT aside: fewer than
  // the queries when a write batch merged them (merged_batch.h), more when
  // it failed and ran them again one by one.
  int statements = 0;
};

// Runs `queries` as one batch on a pooled connection. A batch of one runs as
// a plain statement. In a write batch, the queries of a statement with a
// merged form (Statement::merged) run as one statement.
BatchResults RunBatch(ConnectionPool& pool, BatchMode mode,
                      const std::vector<Connection::Query>& queries);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_BATCH_H_
