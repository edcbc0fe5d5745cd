#include "storage/pool.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "storage/async_batcher.h"
#include "storage/batcher.h"

namespace mdc::storage {

PooledConnection::~PooledConnection() {
  if (conn_ != nullptr) pool_->Release(std::move(conn_), use_);
}

namespace {

// Statements per batch: enough to cover every thread of a busy server.
constexpr int kMaxBatch = 256;
// Write batches under way at once. One: while a batch commits, the next
// gathers (two made batches smaller and PostgreSQL's CPU per request
// higher).
constexpr int kWriteBatchesInFlight = 1;
// Bulk writes are PostgreSQL CPU, not commit latency: one batch at a time
// would hold PostgreSQL to one core. Two = the cores of the machine this is
// tuned on (docs/performance.md).
constexpr int kBulkWriteBatchesInFlight = 2;
constexpr int kReadBatchesInFlight = 1;

// See ConnectionPool::reserved_for_writes.
int ReservedForWrites(int size) {
  return std::min(kWriteBatchesInFlight + kBulkWriteBatchesInFlight, size / 2);
}

}  // namespace

ConnectionPool::ConnectionPool(std::string url, int size,
                               absl::Duration statement_timeout,
                               StorageObserver* observer)
    : url_(std::move(url)),
      size_(size < 1 ? 1 : size),
      reserved_for_writes_(ReservedForWrites(size_)),
      statement_timeout_(statement_timeout),
      observer_(observer != nullptr ? *observer : NoStorageObserver()),
      reads_(std::make_unique<Batcher>(*this, BatchMode::kRead, kMaxBatch,
                                       kReadBatchesInFlight, kReads)),
      async_reads_(
          std::make_unique<AsyncBatcher>(*this, BatchMode::kRead, kMaxBatch,
                                         kReadBatchesInFlight, kAsyncReads)),
      writes_(std::make_unique<AsyncBatcher>(
          *this, BatchMode::kWrite, kMaxBatch, kWriteBatchesInFlight, kWrites)),
      bulk_writes_(std::make_unique<AsyncBatcher>(
          *this, BatchMode::kWrite, kMaxBatch, kBulkWriteBatchesInFlight,
          kBulkWrites)) {
  observer_.PoolSized(size_);
}

ConnectionPool::~ConnectionPool() = default;

void ConnectionPool::SubmitWrite(const Statement& statement, Params params,
                                 ResultCallback done) {
  writes_->Submit(statement, std::move(params), std::move(done));
}

void ConnectionPool::SubmitBulkWrite(const Statement& statement, Params params,
                                     ResultCallback done) {
  bulk_writes_->Submit(statement, std::move(params), std::move(done));
}

absl::StatusOr<Result> ConnectionPool::ExecRead(const Statement& statement,
                                                const Params& params) {
  return reads_->Run(statement, params);
}

void ConnectionPool::SubmitRead(const Statement& statement, Params params,
                                ResultCallback done) {
  async_reads_->Submit(statement, std::move(params), std::move(done));
}

absl::StatusOr<PooledConnection> ConnectionPool::Acquire(absl::Duration wait,
                                                         PoolUse use) {
  std::unique_ptr<Connection> conn;
  bool replaces_broken = false;
  {
    absl::MutexLock lock(&mu_);
    auto available = [this, use]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      if (use == PoolUse::kOther && others_ >= size_ - reserved_for_writes_) {
        return false;  // the rest is kept for the writes
      }
      return !idle_.empty() || open_ < size_;
    };
    if (!available()) {
      // Every connection is busy. Only this path reads the clock.
      const absl::Time start = absl::Now();
      const bool freed =
          mu_.AwaitWithTimeout(absl::Condition(&available), wait);
      observer_.PoolWaited(absl::Now() - start, /*timed_out=*/!freed);
      if (!freed) {
        return absl::ResourceExhaustedError(
            "server busy: no database connection free; retry");
      }
    }
    if (use == PoolUse::kOther) ++others_;
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;  // reserve the slot; connect outside the lock
      if (broken_ > 0) {
        --broken_;
        replaces_broken = true;
      }
    }
    ReportConnections();
  }
  if (conn != nullptr && conn->healthy()) {
    return PooledConnection(this, std::move(conn), use);
  }
  if (conn != nullptr) replaces_broken = true;
  conn.reset();  // broken: replace it
  auto opened = Open();
  if (!opened.ok()) {
    observer_.PoolConnectFailed();
    absl::MutexLock lock(&mu_);
    --open_;
    if (use == PoolUse::kOther) --others_;
    if (replaces_broken) ++broken_;  // still to be replaced
    ReportConnections();
    return opened.status();
  }
  if (replaces_broken) observer_.PoolReconnected();
  return PooledConnection(this, std::move(*opened), use);
}

absl::StatusOr<std::unique_ptr<Connection>> ConnectionPool::Open() {
  auto opened = Connection::Open(url_);
  if (!opened.ok() || statement_timeout_ <= absl::ZeroDuration()) {
    return opened;
  }
  // Set for the session, outside any transaction, so it stays; in
  // milliseconds, PostgreSQL's unit for it.
  const int64_t ms =
      std::max<int64_t>(1, absl::ToInt64Milliseconds(statement_timeout_));
  auto set =
      (*opened)->ExecScript(absl::StrCat("SET statement_timeout = ", ms));
  if (!set.ok()) return set.status();
  return opened;
}

void ConnectionPool::Release(std::unique_ptr<Connection> conn, PoolUse use) {
  absl::MutexLock lock(&mu_);
  if (use == PoolUse::kOther) --others_;
  if (conn->healthy()) {
    idle_.push_back(std::move(conn));
  } else {
    --open_;  // dropped; a later Acquire opens a fresh one
    ++broken_;
  }
  ReportConnections();
}

void ConnectionPool::ReportConnections() {
  observer_.PoolConnections(open_ - static_cast<int>(idle_.size()), open_);
}

absl::Status ConnectionPool::InTransaction(
    absl::FunctionRef<absl::Status(Connection&)> body) {
  auto conn = Acquire();
  if (!conn.ok()) return conn.status();
  if (auto begun = (*conn)->ExecScript("BEGIN"); !begun.ok()) {
    return begun.status();
  }
  absl::Status status = body(**conn);
  if (status.ok()) {
    auto committed = (*conn)->ExecScript("COMMIT");
    if (committed.ok()) return absl::OkStatus();
    status = committed.status();
  }
  // A failed ROLLBACK leaves nothing to do: the server rolls the
  // transaction back when the broken connection closes.
  (void)(*conn)->ExecScript("ROLLBACK");
  return status;
}

absl::Status ConnectionPool::Ping() {
  auto conn = Acquire(absl::Seconds(2));
  if (!conn.ok()) return conn.status();
  return (*conn)->ExecScript("SELECT 1").status();
}

absl::Status WaitForDatabase(ConnectionPool& pool, absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  while (true) {
    absl::Status status = pool.Ping();
    if (status.ok()) return status;
    if (absl::Now() >= deadline) {
      return absl::UnavailableError(
          "database unreachable; check DATABASE_URL and that PostgreSQL runs");
    }
    log::Info("waiting for the database");
    absl::SleepFor(absl::Seconds(1));
  }
}

}  // namespace mdc::storage
