// A fixed-size pool of PostgreSQL connections shared by the server's request
// threads. Connections open lazily, and one found broken (the server
// restarted, the network dropped) is replaced on its next checkout, so the
// service recovers from a database outage without a restart.
//
// Thread-safe.
#ifndef MDC_STORAGE_POOL_H_
#define MDC_STORAGE_POOL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "storage/batch.h"
#include "storage/observer.h"
#include "storage/pg.h"

namespace mdc::storage {

class AsyncBatcher;
class Batcher;
class ConnectionPool;

// Who checks a connection out (ConnectionPool::Acquire).
enum class PoolUse {
  // Everything but the write batchers: reads, transactions, maintenance.
  kOther,
  // The batches of the write batchers (SubmitWrite, SubmitBulkWrite): the
  // collectors' writes, which may also take the connections kept for them.
  kWrites,
};

// A connection checked out of the pool; returns it on destruction.
class PooledConnection {
 public:
  PooledConnection(ConnectionPool* pool, std::unique_ptr<Connection> conn,
                   PoolUse use = PoolUse::kOther)
      : pool_(pool), conn_(std::move(conn)), use_(use) {}
  PooledConnection(PooledConnection&&) = default;
  PooledConnection& operator=(PooledConnection&&) = default;
  ~PooledConnection();

  Connection* operator->() const { return conn_.get(); }
  Connection& operator*() const { return *conn_; }

 private:
  ConnectionPool* pool_;
  std::unique_ptr<Connection> conn_;
  PoolUse use_;
};

class ConnectionPool {
 public:
  // The names of the pool's batchers in reports to the observer.
  static constexpr absl::string_view kReads = "reads";
  static constexpr absl::string_view kAsyncReads = "async_reads";
  static constexpr absl::string_view kWrites = "writes";
  static constexpr absl::string_view kBulkWrites = "bulk_writes";

  // `statement_timeout` > 0 becomes PostgreSQL's statement_timeout on every
  // connection (MDC_STATEMENT_TIMEOUT): a statement that runs longer, e.g.
  // waiting on a lock, is cancelled and fails with UNAVAILABLE and reason
  // DATABASE_TIMEOUT (pg.h), and the connection stays usable.
  // `observer` (none: NoStorageObserver()) hears about the pool, its
  // batchers and the rows the repositories write; it must outlive the pool.
  ConnectionPool(std::string url, int size,
                 absl::Duration statement_timeout = absl::ZeroDuration(),
                 StorageObserver* observer = nullptr);
  ~ConnectionPool();

  // Waits up to `wait` for a free connection, opening one if the pool is not
  // full. Returns UNAVAILABLE when the database cannot be reached and
  // RESOURCE_EXHAUSTED when every connection stayed busy for `wait`.
  // reserved_for_writes() connections are kept for PoolUse::kWrites: other
  // users together hold at most size() - reserved_for_writes(), so a flood
  // of reads never makes a collector's write batch wait for a connection.
  absl::StatusOr<PooledConnection> Acquire(
      absl::Duration wait = absl::Seconds(10), PoolUse use = PoolUse::kOther);

  // Runs `body` between BEGIN and COMMIT on one connection; rolls back when
  // `body` or the commit fails. The first error is returned.
  absl::Status InTransaction(absl::FunctionRef<absl::Status(Connection&)> body);

  // Queues one write statement, committed together with the writes others
  // submit at the same time (group commit, see async_batcher.h); `done` gets
  // its result once it is committed, on a storage thread. A statement that
  // fails fails alone.
  void SubmitWrite(const Statement& statement, Params params,
                   ResultCallback done);

  // SubmitWrite for a statement that writes hundreds of rows (a quote
  // batch): such statements keep a PostgreSQL backend busy for
  // milliseconds, so several of their batches run at once (each on its own
  // connection) and PostgreSQL can use more than one core for them.
  void SubmitBulkWrite(const Statement& statement, Params params,
                       ResultCallback done);

  // Runs one read statement, pipelined with the reads other threads submit
  // at the same time (one round trip for all of them).
  absl::StatusOr<Result> ExecRead(const Statement& statement,
                                  const Params& params);

  // ExecRead for callers that must not block: `done` gets the result on a
  // storage thread.
  void SubmitRead(const Statement& statement, Params params,
                  ResultCallback done);

  // Round trip to the database (SELECT 1), for health checks.
  absl::Status Ping();

  int size() const { return size_; }
  // The connections only the write batchers may take: as many as their
  // batches in flight (3), at most half the pool (none in a pool of one).
  int reserved_for_writes() const { return reserved_for_writes_; }

  StorageObserver& observer() const { return observer_; }

 private:
  friend class PooledConnection;
  void Release(std::unique_ptr<Connection> conn, PoolUse use);
  // Connection::Open with the pool's session settings applied.
  absl::StatusOr<std::unique_ptr<Connection>> Open();
  // Tells the observer how many connections are in use and open.
  void ReportConnections() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string url_;
  const int size_;
  const int reserved_for_writes_;
  const absl::Duration statement_timeout_;
  StorageObserver& observer_;
  absl::Mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_ ABSL_GUARDED_BY(mu_);
  int open_ ABSL_GUARDED_BY(mu_) = 0;  // idle + checked out
  // Checked out for PoolUse::kOther.
  int others_ ABSL_GUARDED_BY(mu_) = 0;
  // Broken connections dropped and not replaced yet: the next connections
  // opened are reconnects.
  int broken_ ABSL_GUARDED_BY(mu_) = 0;
  // Declared last: destroyed first, their threads still using the pool.
  std::unique_ptr<Batcher> reads_;
  std::unique_ptr<AsyncBatcher> async_reads_;
  std::unique_ptr<AsyncBatcher> writes_;
  std::unique_ptr<AsyncBatcher> bulk_writes_;
};

// Pings the database once a second until it answers or `patience` has
// passed (start-up, `mdc-server migrate`). Returns UNAVAILABLE naming
// DATABASE_URL when it never answered.
absl::Status WaitForDatabase(ConnectionPool& pool, absl::Duration patience);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_POOL_H_
