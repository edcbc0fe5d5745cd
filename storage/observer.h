// What the storage layer reports about its own work: the connection pool,
// the batchers and the writes committed. service/metrics turns the reports into
// Prometheus series; storage knows nothing of metrics, so it stays below
// service/ (docs/architecture.md, "Layers").
//
// Every method does nothing by default. They are called on the threads that
// do the work, some while the pool or a batcher holds its lock: an
// implementation must be thread-safe, quick, and must not call back into
// storage.
#ifndef MDC_STORAGE_OBSERVER_H_
#define MDC_STORAGE_OBSERVER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/coverage.h"

namespace mdc::storage {

struct StorageUsage;  // storage_report_repository.h

// A write that committed: the one event every consumer of commits reads
// (the rows-written metric, the market hub's wake-up and the collectors'
// write tallies: service/lifecycle/committed_writes.h).
struct CommittedWrite {
  absl::string_view table;  // a string constant: "stock_quotes", "runs", ...
  int64_t rows = 0;         // rows of `table` inserted or updated
  // Who wrote which records, for a collector write (one that authenticated
  // its writer: MDC_WRITER_CTE, committed_write.h); none for the others
  // (runs, orders, holidays, imports).
  std::optional<domain::WriteTally> tally;
};

class StorageObserver {
 public:
  virtual ~StorageObserver() = default;

  // The pool holds at most `max` connections. Reported once, at its
  // construction.
  virtual void PoolSized(int max) {}
  // `in_use` connections are checked out of the pool, `open` are open
  // (idle + in use, counting one being opened). Reported on every change.
  virtual void PoolConnections(int in_use, int open) {}
  // A checkout found no connection free and waited `waited`; `timed_out`
  // when none became free in time (the caller got RESOURCE_EXHAUSTED).
  virtual void PoolWaited(absl::Duration waited, bool timed_out) {}
  // A connection was opened to replace one found broken (the database
  // restarted, the network dropped).
  virtual void PoolReconnected() {}
  // Opening a connection failed (the database is unreachable).
  virtual void PoolConnectFailed() {}

  // `batcher` names one of the pool's batchers (ConnectionPool's kReads,
  // ...). `depth` statements wait for a batch. Reported on every change.
  virtual void BatchQueueDepth(absl::string_view batcher, int depth) {}
  // A batch of `statements` ran in `took`, from taking them off the queue
  // to their results: for a write batch, through its COMMIT.
  virtual void BatchRan(absl::string_view batcher, int statements,
                        absl::Duration took) {}
  // The batch ran `sent` SQL statements for its submissions (BEGIN and
  // COMMIT aside): one for all the submissions of a merged statement, and
  // each once more when a write batch failed and they ran one by one.
  virtual void BatchStatements(absl::string_view batcher, int sent) {}

  // `write` committed. Called once per write, after its COMMIT, on the
  // thread that ran it (a batcher's for collector writes).
  virtual void WriteCommitted(const CommittedWrite& write) {}

  // The storage report was read (StorageReportRepository::Report): the
  // rows and bytes of every kind, month and form, the whole of it.
  virtual void StorageReported(const std::vector<StorageUsage>& usage) {}
};

// An observer that ignores everything: the pool's default.
StorageObserver& NoStorageObserver();

}  // namespace mdc::storage

#endif  // MDC_STORAGE_OBSERVER_H_
