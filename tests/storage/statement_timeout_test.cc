// The pool's statement timeout (MDC_STATEMENT_TIMEOUT) against a real
// PostgreSQL: while another session holds a lock, a statement that needs it
// is cancelled and fails with UNAVAILABLE and reason DATABASE_TIMEOUT; a
// batch with such a statement fails whole (a write batch commits nothing,
// the statements after it are not run again one by one); and the pool's
// one connection is used again afterwards.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "domain/error_reason.h"
#include "storage/batch.h"
#include "storage/pg.h"
#include "storage/pool.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr Statement kCountLocked{"statement_timeout_count_locked",
                                 "SELECT count(*) FROM timeout_locked"};
constexpr Statement kCountFree{"statement_timeout_count_free",
                               "SELECT count(*) FROM timeout_free"};
constexpr Statement kInsertLocked{
    "statement_timeout_insert_locked",
    "INSERT INTO timeout_locked (k) VALUES ($1) ON CONFLICT DO NOTHING"};
constexpr Statement kInsertFree{
    "statement_timeout_insert_free",
    "INSERT INTO timeout_free (k) VALUES ($1) ON CONFLICT DO NOTHING"};
constexpr Statement kBackendPid{"statement_timeout_backend_pid",
                                "SELECT pg_backend_pid()"};

class StatementTimeoutTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    db_->Query("CREATE TABLE timeout_locked (k integer PRIMARY KEY)");
    db_->Query("CREATE TABLE timeout_free (k integer PRIMARY KEY)");
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  void SetUp() override {
    db_->Query("DELETE FROM timeout_locked");
    db_->Query("DELETE FROM timeout_free");
    // One connection, so "used again" is observable as one backend.
    pool_ = std::make_unique<ConnectionPool>(db_->url(), 1,
                                             absl::Milliseconds(300));
    // Prepare every statement before the lock: preparing one takes the
    // table's lock too, and these tests are about running them.
    for (const Statement* s : {&kCountLocked, &kCountFree, &kBackendPid}) {
      ASSERT_TRUE(pool_->ExecRead(*s, Params()).ok()) << s->name;
    }
    for (const Statement* s : {&kInsertLocked, &kInsertFree}) {
      auto conn = pool_->Acquire();
      ASSERT_TRUE(conn.ok()) << conn.status();
      ASSERT_TRUE((*conn)->Exec(*s, Params().Int32(-1)).ok()) << s->name;
    }
    pid_ = BackendPid();
  }

  std::string BackendPid() {
    auto pid = pool_->ExecRead(kBackendPid, Params());
    EXPECT_TRUE(pid.ok()) << pid.status();
    return pid.ok() ? std::to_string(pid->Int64(0, 0)) : "";
  }

  // Another session takes an ACCESS EXCLUSIVE lock on timeout_locked and
  // holds it until the returned connection is destroyed.
  static std::unique_ptr<Connection> LockTable() {
    auto conn = Connection::Open(db_->url());
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return nullptr;
    EXPECT_TRUE((*conn)->ExecScript("BEGIN").ok());
    EXPECT_TRUE(
        (*conn)
            ->ExecScript("LOCK TABLE timeout_locked IN ACCESS EXCLUSIVE MODE")
            .ok());
    return *std::move(conn);
  }

  // Ends the lock's transaction: the lock is released when this returns.
  static void Unlock(std::unique_ptr<Connection>& lock) {
    ASSERT_NE(lock, nullptr);
    EXPECT_TRUE(lock->ExecScript("ROLLBACK").ok());
    lock.reset();
  }

  static void ExpectTimedOut(const absl::StatusOr<Result>& result,
                             const std::string& what) {
    ASSERT_FALSE(result.ok()) << what;
    EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable) << what;
    EXPECT_TRUE(IsStatementTimeout(result.status())) << what;
    EXPECT_EQ(domain::ReasonOf(result.status()), "DATABASE_TIMEOUT") << what;
  }

  static testing::TestDatabase* db_;
  std::unique_ptr<ConnectionPool> pool_;
  std::string pid_;
};

testing::TestDatabase* StatementTimeoutTest::db_ = nullptr;

TEST_F(StatementTimeoutTest, AStatementWaitingOnALockIsCancelled) {
  auto lock = LockTable();
  ExpectTimedOut(pool_->ExecRead(kCountLocked, Params()), "count");
  EXPECT_NE(
      std::string(pool_->ExecRead(kCountLocked, Params()).status().message())
          .find("took too long"),
      std::string::npos);
  Unlock(lock);
  auto count = pool_->ExecRead(kCountLocked, Params());
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(BackendPid(), pid_) << "the connection was replaced";
}

TEST_F(StatementTimeoutTest, AWriteBatchWithATimedOutStatementCommitsNothing) {
  Params one, two, three;
  one.Int32(1);
  two.Int32(2);
  three.Int32(3);
  const std::vector<Connection::Query> batch = {
      {&kInsertFree, &one}, {&kInsertLocked, &two}, {&kInsertFree, &three}};
  auto lock = LockTable();
  const auto results = RunBatch(*pool_, BatchMode::kWrite, batch).results;
  Unlock(lock);
  ASSERT_EQ(results.size(), 3u);
  // Not run again one by one: the writes around the cancelled one fail
  // with it, and none of them committed.
  for (size_t i = 0; i < results.size(); ++i) {
    ExpectTimedOut(results[i], "write " + std::to_string(i));
  }
  EXPECT_EQ(db_->Query("SELECT count(*) FROM timeout_free WHERE k > 0"), "0");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM timeout_locked WHERE k > 0"), "0");
  // The same batch, sent again, commits.
  const auto again = RunBatch(*pool_, BatchMode::kWrite, batch).results;
  for (const auto& result : again) EXPECT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(db_->Query("SELECT count(*) FROM timeout_free WHERE k > 0"), "2");
  EXPECT_EQ(BackendPid(), pid_) << "the connection was replaced";
}

TEST_F(StatementTimeoutTest, AReadBatchKeepsWhatRanAndFailsTheRest) {
  const Params none;
  const std::vector<Connection::Query> batch = {
      {&kCountFree, &none}, {&kCountLocked, &none}, {&kCountFree, &none}};
  auto lock = LockTable();
  const auto results = RunBatch(*pool_, BatchMode::kRead, batch).results;
  Unlock(lock);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_TRUE(results[0].ok()) << results[0].status();
  ExpectTimedOut(results[1], "the read of the locked table");
  ExpectTimedOut(results[2], "the read after it");
  EXPECT_EQ(BackendPid(), pid_) << "the connection was replaced";
}

TEST_F(StatementTimeoutTest, ZeroMeansNoTimeout) {
  ConnectionPool unlimited(db_->url(), 1);
  auto conn = unlimited.Acquire();
  ASSERT_TRUE(conn.ok()) << conn.status();
  auto shown = (*conn)->ExecScript("SHOW statement_timeout");
  ASSERT_TRUE(shown.ok()) << shown.status();
  EXPECT_EQ(shown->String(0, 0), "0");
  auto limited = pool_->Acquire();
  ASSERT_TRUE(limited.ok()) << limited.status();
  auto set = (*limited)->ExecScript("SHOW statement_timeout");
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->String(0, 0), "300ms");
}

}  // namespace
}  // namespace mdc::storage
