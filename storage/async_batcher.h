// Batches statements for callers that must not block (the gRPC callback
// handlers of the collector writes): Submit queues a statement and returns
// at once; the batcher's own threads run whatever is queued as one batch
// (batch.h: one round trip, one commit for writes) and call each
// statement's `done` with its result, on the batcher's thread.
//
// While a batch runs, new submissions queue and go together in the next
// one, so batches grow only as large as the load makes them; a lone
// statement runs as soon as a thread is free.
//
// Guarantees: `done` is called exactly once per submission, after the
// statement ran (for writes, committed); a write that fails fails alone.
// The destructor runs everything already submitted, then stops.
//
// Thread-safe.
#ifndef MDC_STORAGE_ASYNC_BATCHER_H_
#define MDC_STORAGE_ASYNC_BATCHER_H_

#include <deque>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "storage/batch.h"
#include "storage/observer.h"
#include "storage/pg.h"

namespace mdc::storage {

class ConnectionPool;

class AsyncBatcher {
 public:
  using Done = ResultCallback;

  // At most `max_batch` statements per batch; `threads` batches at once,
  // each on its own pooled connection. `name` (a string constant) names the
  // batcher in reports to the pool's observer.
  AsyncBatcher(ConnectionPool& pool, BatchMode mode, int max_batch, int threads,
               absl::string_view name = {});
  ~AsyncBatcher();
  AsyncBatcher(const AsyncBatcher&) = delete;
  AsyncBatcher& operator=(const AsyncBatcher&) = delete;

  // Queues `statement` with `params`; `done` gets its result.
  void Submit(const Statement& statement, Params params, Done done);

 private:
  struct Job {
    const Statement* statement;
    Params params;
    Done done;
  };

  // A thread: takes the queued jobs, runs them, reports; until stopped and
  // drained.
  void Loop();

  ConnectionPool& pool_;
  StorageObserver& observer_;
  const absl::string_view name_;
  const BatchMode mode_;
  const size_t max_batch_;
  absl::Mutex mu_;
  std::deque<Job> waiting_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_ASYNC_BATCHER_H_
