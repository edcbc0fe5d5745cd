// The connections the pool keeps for the write batchers (ConnectionPool::
// reserved_for_writes) against a real PostgreSQL: other users together hold
// at most size - reserved, and are refused (after their wait) beyond that
// while a write batch still gets a connection and commits; a pool too small
// to keep any lends all of its connections to anyone.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "absl/synchronization/notification.h"
#include "storage/pg.h"
#include "storage/pool.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr Statement kInsert{
    "pool_reserve_insert",
    "INSERT INTO pool_reserve (k) VALUES ($1) ON CONFLICT DO NOTHING"};

class PoolReserveTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    db_->Query("CREATE TABLE pool_reserve (k integer PRIMARY KEY)");
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }
  static testing::TestDatabase* db_;
};

testing::TestDatabase* PoolReserveTest::db_ = nullptr;

TEST_F(PoolReserveTest, ReadersCannotTakeTheConnectionsKeptForWrites) {
  ConnectionPool pool(db_->url(), 8);
  ASSERT_EQ(pool.reserved_for_writes(), 3);
  std::vector<PooledConnection> held;
  for (int i = 0; i < 5; ++i) {
    auto conn = pool.Acquire(absl::ZeroDuration());
    ASSERT_TRUE(conn.ok()) << i << ": " << conn.status();
    held.push_back(*std::move(conn));
  }
  // A sixth reader finds nothing it may take.
  const auto sixth = pool.Acquire(absl::ZeroDuration());
  ASSERT_FALSE(sixth.ok());
  EXPECT_EQ(sixth.status().code(), absl::StatusCode::kResourceExhausted);

  // A collector's write still commits, on a kept connection.
  absl::Notification written;
  absl::Status status = absl::UnknownError("not answered");
  pool.SubmitWrite(kInsert, Params().Int32(7),
                   [&](absl::StatusOr<Result> result) {
                     status = result.status();
                     written.Notify();
                   });
  written.WaitForNotification();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(db_->Query("SELECT count(*) FROM pool_reserve WHERE k = 7"), "1");

  // A reader's connection given back is a reader's again.
  held.pop_back();
  EXPECT_TRUE(pool.Acquire(absl::ZeroDuration()).ok());
}

TEST_F(PoolReserveTest, WritesMayUseEveryConnection) {
  ConnectionPool pool(db_->url(), 4);
  ASSERT_EQ(pool.reserved_for_writes(), 2);
  std::vector<PooledConnection> held;
  for (int i = 0; i < 4; ++i) {
    auto conn = pool.Acquire(absl::ZeroDuration(), PoolUse::kWrites);
    ASSERT_TRUE(conn.ok()) << i << ": " << conn.status();
    held.push_back(*std::move(conn));
  }
  EXPECT_FALSE(pool.Acquire(absl::ZeroDuration(), PoolUse::kWrites).ok());
}

TEST_F(PoolReserveTest, APoolOfOneKeepsNothing) {
  ConnectionPool pool(db_->url(), 1);
  EXPECT_EQ(pool.reserved_for_writes(), 0);
  auto conn = pool.Acquire(absl::ZeroDuration());
  EXPECT_TRUE(conn.ok()) << conn.status();
}

}  // namespace
}  // namespace mdc::storage
