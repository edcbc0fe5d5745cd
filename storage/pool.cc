#include "storage/pool.h"

#include <utility>

namespace mdc::storage {

PooledConnection::~PooledConnection() {
  if (conn_ != nullptr) pool_->Release(std::move(conn_));
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

}  // namespace

ConnectionPool::ConnectionPool(std::string url, int size)
    : url_(std::move(url)),
      size_(size < 1 ? 1 : size),
      reads_(std::make_unique<Batcher>(*this, BatchMode::kRead, kMaxBatch,
                                       kReadBatchesInFlight)),
      async_reads_(std::make_unique<AsyncBatcher>(
          *this, BatchMode::kRead, kMaxBatch, kReadBatchesInFlight)),
      writes_(std::make_unique<AsyncBatcher>(*this, BatchMode::kWrite,
                                             kMaxBatch, kWriteBatchesInFlight)),
      bulk_writes_(std::make_unique<AsyncBatcher>(
          *this, BatchMode::kWrite, kMaxBatch, kBulkWriteBatchesInFlight)) {}

ConnectionPool::~ConnectionPool() = default;

void ConnectionPool::SubmitWrite(const Statement& statement, Params params,
                                 AsyncBatcher::Done done) {
  writes_->Submit(statement, std::move(params), std::move(done));
}

void ConnectionPool::SubmitBulkWrite(const Statement& statement, Params params,
                                     AsyncBatcher::Done done) {
  bulk_writes_->Submit(statement, std::move(params), std::move(done));
}

absl::StatusOr<Result> ConnectionPool::ExecRead(const Statement& statement,
                                                const Params& params) {
  return reads_->Run(statement, params);
}

void ConnectionPool::SubmitRead(const Statement& statement, Params params,
                                AsyncBatcher::Done done) {
  async_reads_->Submit(statement, std::move(params), std::move(done));
}

absl::StatusOr<PooledConnection> ConnectionPool::Acquire(absl::Duration wait) {
  std::unique_ptr<Connection> conn;
  {
    absl::MutexLock lock(&mu_);
    auto available = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return !idle_.empty() || open_ < size_;
    };
    if (!mu_.AwaitWithTimeout(absl::Condition(&available), wait)) {
      return absl::ResourceExhaustedError(
          "server busy: no database connection free; retry");
    }
    if (!idle_.empty()) {
      conn = std::move(idle_.back());
      idle_.pop_back();
    } else {
      ++open_;  // reserve the slot; connect outside the lock
    }
  }
  if (conn != nullptr && conn->healthy()) {
    return PooledConnection(this, std::move(conn));
  }
  conn.reset();  // broken: replace it
  auto opened = Connection::Open(url_);
  if (!opened.ok()) {
    absl::MutexLock lock(&mu_);
    --open_;
    return opened.status();
  }
  return PooledConnection(this, std::move(*opened));
}

void ConnectionPool::Release(std::unique_ptr<Connection> conn) {
  absl::MutexLock lock(&mu_);
  if (conn->healthy()) {
    idle_.push_back(std::move(conn));
  } else {
    --open_;  // dropped; a later Acquire opens a fresh one
  }
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

}  // namespace mdc::storage
