// What the pool, its batchers and the repositories report to their
// observer (storage/observer.h), against a real PostgreSQL: checkouts and
// waits, a connection replaced after its backend was killed, failed
// connects, batch sizes and queue depths, and rows written per table only
// when a write committed.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/observer.h"
#include "storage/pool.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// Remembers every report.
class RecordingObserver : public StorageObserver {
 public:
  struct Batch {
    std::string batcher;
    int statements;
  };

  void PoolSized(int max) override {
    absl::MutexLock lock(&mu_);
    max_ = max;
  }
  void PoolConnections(int in_use, int open) override {
    absl::MutexLock lock(&mu_);
    in_use_ = in_use;
    open_ = open;
  }
  void PoolWaited(absl::Duration, bool timed_out) override {
    absl::MutexLock lock(&mu_);
    ++waits_;
    if (timed_out) ++timeouts_;
  }
  void PoolReconnected() override {
    absl::MutexLock lock(&mu_);
    ++reconnects_;
  }
  void PoolConnectFailed() override {
    absl::MutexLock lock(&mu_);
    ++connect_failures_;
  }
  void BatchQueueDepth(absl::string_view batcher, int depth) override {
    absl::MutexLock lock(&mu_);
    depths_[std::string(batcher)].push_back(depth);
  }
  void BatchRan(absl::string_view batcher, int statements,
                absl::Duration) override {
    absl::MutexLock lock(&mu_);
    batches_.push_back({std::string(batcher), statements});
  }
  void WriteCommitted(const CommittedWrite& write) override {
    absl::MutexLock lock(&mu_);
    rows_[std::string(write.table)] += write.rows;
    if (write.tally.has_value()) tallies_.push_back(*write.tally);
  }

  int max() { return Read(max_); }
  int in_use() { return Read(in_use_); }
  int open() { return Read(open_); }
  int waits() { return Read(waits_); }
  int timeouts() { return Read(timeouts_); }
  int reconnects() { return Read(reconnects_); }
  int connect_failures() { return Read(connect_failures_); }
  std::vector<int> depths(const std::string& batcher) {
    absl::MutexLock lock(&mu_);
    return depths_[batcher];
  }
  std::vector<Batch> batches() {
    absl::MutexLock lock(&mu_);
    return batches_;
  }
  std::map<std::string, int64_t> rows() {
    absl::MutexLock lock(&mu_);
    return rows_;
  }
  std::vector<domain::WriteTally> tallies() {
    absl::MutexLock lock(&mu_);
    return tallies_;
  }

 private:
  int Read(const int& field) {
    absl::MutexLock lock(&mu_);
    return field;
  }

  absl::Mutex mu_;
  int max_ = -1, in_use_ = -1, open_ = -1;
  int waits_ = 0, timeouts_ = 0, reconnects_ = 0, connect_failures_ = 0;
  std::map<std::string, std::vector<int>> depths_;
  std::vector<Batch> batches_;
  std::map<std::string, int64_t> rows_;
  std::vector<domain::WriteTally> tallies_;
};

constexpr Statement kBackendPid{"observer_test_pid",
                                "SELECT pg_backend_pid()::text"};
constexpr Statement kOne{"observer_test_one", "SELECT 1"};

class StorageObserverTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new testing::TestDatabase(); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  // A pool of `size` over the suite's database, reporting to observer_.
  std::unique_ptr<ConnectionPool> Pool(int size) {
    return std::make_unique<ConnectionPool>(db_->url(), size,
                                            absl::ZeroDuration(), &observer_);
  }

  static testing::TestDatabase* db_;
  RecordingObserver observer_;
};

testing::TestDatabase* StorageObserverTest::db_ = nullptr;

TEST_F(StorageObserverTest, ReportsItsSizeAndTheConnectionsInUse) {
  auto pool = Pool(3);
  EXPECT_EQ(observer_.max(), 3);
  {
    auto first = pool->Acquire();
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_EQ(observer_.in_use(), 1);
    auto second = pool->Acquire();
    ASSERT_TRUE(second.ok()) << second.status();
    EXPECT_EQ(observer_.in_use(), 2);
    EXPECT_EQ(observer_.open(), 2);
  }
  EXPECT_EQ(observer_.in_use(), 0);
  EXPECT_EQ(observer_.open(), 2);  // idle, kept open
  EXPECT_EQ(observer_.waits(), 0);
}

TEST_F(StorageObserverTest, ReportsACheckoutThatWaitedInVain) {
  auto pool = Pool(1);
  auto held = pool->Acquire();
  ASSERT_TRUE(held.ok()) << held.status();
  auto refused = pool->Acquire(absl::Milliseconds(20));
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(observer_.waits(), 1);
  EXPECT_EQ(observer_.timeouts(), 1);
  EXPECT_EQ(observer_.in_use(), 1);
}

TEST_F(StorageObserverTest, ReportsAReconnectAfterTheBackendWasKilled) {
  auto pool = Pool(1);
  std::string pid;
  {
    auto conn = pool->Acquire();
    ASSERT_TRUE(conn.ok()) << conn.status();
    auto result = (*conn)->Exec(kBackendPid, Params());
    ASSERT_TRUE(result.ok()) << result.status();
    pid = result->String(0, 0);
  }
  // Waits (up to 10 s) until the backend has exited.
  ASSERT_EQ(db_->Query("SELECT pg_terminate_backend(" + pid + ", 10000)"), "t");
  {
    // The pool learns that the connection broke when it is used.
    auto conn = pool->Acquire();
    ASSERT_TRUE(conn.ok()) << conn.status();
    EXPECT_FALSE((*conn)->Exec(kOne, Params()).ok());
  }
  EXPECT_EQ(observer_.reconnects(), 0);
  EXPECT_EQ(observer_.open(), 0);  // dropped
  auto conn = pool->Acquire();
  ASSERT_TRUE(conn.ok()) << conn.status();
  EXPECT_TRUE((*conn)->Exec(kOne, Params()).ok());
  EXPECT_EQ(observer_.reconnects(), 1);
  EXPECT_EQ(observer_.connect_failures(), 0);
}

TEST_F(StorageObserverTest, ReportsAFailedConnect) {
  // Nothing listens on port 1.
  ConnectionPool pool("postgresql://mdc@127.0.0.1:1/none?connect_timeout=2", 2,
                      absl::ZeroDuration(), &observer_);
  EXPECT_FALSE(pool.Acquire().ok());
  EXPECT_EQ(observer_.connect_failures(), 1);
  EXPECT_EQ(observer_.in_use(), 0);
  EXPECT_EQ(observer_.open(), 0);
}

TEST_F(StorageObserverTest, BatchersReportTheirQueueAndEachBatch) {
  auto pool = Pool(2);
  auto read = pool->ExecRead(kOne, Params());
  ASSERT_TRUE(read.ok()) << read.status();
  absl::Notification done;
  pool->SubmitRead(kOne, Params(), [&](absl::StatusOr<Result> result) {
    EXPECT_TRUE(result.ok()) << result.status();
    done.Notify();
  });
  done.WaitForNotification();

  for (absl::string_view name :
       {ConnectionPool::kReads, ConnectionPool::kAsyncReads}) {
    // Queued, then taken into a batch.
    EXPECT_EQ(observer_.depths(std::string(name)), (std::vector<int>{1, 0}))
        << name;
  }
  std::map<std::string, int> statements;
  for (const auto& batch : observer_.batches()) {
    statements[batch.batcher] += batch.statements;
  }
  EXPECT_EQ(statements,
            (std::map<std::string, int>{{"async_reads", 1}, {"reads", 1}}));
}

TEST_F(StorageObserverTest, RepositoriesReportWritesOnlyWhenCommitted) {
  auto pool = Pool(2);
  Repositories repos(*pool);
  const std::string hash = domain::HashToken(domain::GenerateToken());
  ASSERT_TRUE(
      repos.developers.Create("observer_writer", "developer", hash).ok());

  domain::QuoteBatch batch;
  batch.observed_at =
      *domain::ParseInstant("2025-03-07T10:00:00", "Asia/Kolkata");
  for (const char* symbol : {"AAA", "BBB", "CCC"}) {
    v1::QuoteData quote;
    quote.set_status(v1::SUCCESS);
    quote.mutable_payload()->set_last_price(10);
    batch.quotes.push_back({symbol, quote});
  }
  auto write = [&](const std::string& token_hash) {
    absl::Notification answered;
    bool wrote = false;
    repos.quotes.UpsertBatch(
        batch, token_hash,
        [&](absl::StatusOr<std::optional<DeveloperRecord>> writer) {
          wrote = writer.ok() && writer->has_value();
          answered.Notify();
        });
    answered.WaitForNotification();
    return wrote;
  };
  ASSERT_TRUE(write(hash));
  ASSERT_TRUE(write(hash));  // an update is a write too
  // Nobody holds this token: nothing written, nothing counted.
  ASSERT_FALSE(write(domain::HashToken(domain::GenerateToken())));
  batch.quotes.push_back(batch.quotes.front());  // duplicate key: fails
  ASSERT_FALSE(write(hash));

  EXPECT_EQ(observer_.rows(),
            (std::map<std::string, int64_t>{{"stock_quotes", 6}}));
  // Each committed collector write carries its writer's tally, once.
  const std::vector<domain::WriteTally> tallies = observer_.tallies();
  ASSERT_EQ(tallies.size(), 2u);
  for (const domain::WriteTally& tally : tallies) {
    EXPECT_EQ(tally.username, "observer_writer");
    EXPECT_EQ(tally.kind, domain::RecordKind::kQuote);
    EXPECT_EQ(tally.day, absl::CivilDay(2025, 3, 7));
    EXPECT_EQ(tally.last_observed, batch.observed_at);
    EXPECT_EQ(tally.records, 3);
  }
}

}  // namespace
}  // namespace mdc::storage
