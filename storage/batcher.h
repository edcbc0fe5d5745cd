// Runs statements that many request threads submit at the same time as one
// batch (batch.h): one round trip for all of them and, for writes, one
// commit.
//
// There is no batching thread and no timer: the first thread to submit while
// no batch is running sends its own statement and every other waiting one;
// statements submitted meanwhile wait and go together in the next batch. A
// lone request therefore runs at once, exactly as without batching, and
// batches grow only as large as the load makes them. (async_batcher.h is the
// same for callers that must not block.)
//
// Guarantees: Run returns only after its statement ran (and, for writes,
// committed); a write that fails fails alone (batch.h).
//
// Thread-safe.
#ifndef MDC_STORAGE_BATCHER_H_
#define MDC_STORAGE_BATCHER_H_

#include <deque>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "storage/batch.h"
#include "storage/observer.h"
#include "storage/pg.h"

namespace mdc::storage {

class ConnectionPool;

class Batcher {
 public:
  using Mode = BatchMode;

  // At most `max_batch` statements per batch, at most `max_in_flight`
  // batches at once (each on its own pooled connection). `name` (a string
  // constant) names the batcher in reports to the pool's observer.
  Batcher(ConnectionPool& pool, Mode mode, int max_batch, int max_in_flight,
          absl::string_view name = {});

  // Runs `statement` with `params`, batched with concurrent submissions.
  absl::StatusOr<Result> Run(const Statement& statement, const Params& params);

 private:
  struct Job {
    const Statement* statement;
    const Params* params;
    bool taken = false;  // part of a running batch
    bool done = false;
    std::optional<absl::StatusOr<Result>> result;
  };

  // Runs `batch` and fills in every job's result.
  void Execute(const std::vector<Job*>& batch);

  ConnectionPool& pool_;
  StorageObserver& observer_;
  const absl::string_view name_;
  const Mode mode_;
  const int max_batch_;
  const int max_in_flight_;
  absl::Mutex mu_;
  std::deque<Job*> waiting_ ABSL_GUARDED_BY(mu_);
  int in_flight_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_BATCHER_H_
