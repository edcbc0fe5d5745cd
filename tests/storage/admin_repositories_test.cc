// Admin storage against a real PostgreSQL: developer paging, token
// replacement, deletes with their cascade and the last-admin rule (also
// under concurrency), last-seen throttling, data deletes by trading day,
// and maintenance scripts.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "absl/time/clock.h"
#include "domain/tokens.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

class AdminStorageTest : public ::testing::Test {
 protected:
  // A fresh database per test: these tests count rows and admins.
  void SetUp() override {
    db_ = std::make_unique<testing::TestDatabase>();
    repos_ = std::make_unique<Repositories>(db_->pool());
  }

  int64_t NewDeveloper(const std::string& username,
                       const std::string& role = "developer") {
    auto created = repos_->developers.Create(
        username, role, domain::HashToken(domain::GenerateToken()));
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? created->id : 0;
  }

  std::string Count(const std::string& table,
                    const std::string& where = "true") {
    return db_->Query("SELECT count(*) FROM " + table + " WHERE " + where);
  }

  // One row of each market data kind on `day` (an IST date), written by
  // `writer`; `n` distinguishes instants.
  void InsertMarketData(const std::string& day, int64_t writer, int n = 0) {
    const std::string at =
        "'" + day + " 10:0" + std::to_string(n) + ":00+05:30'";
    const std::string w = std::to_string(writer);
    db_->Query(
        "INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at, "
        "trading_day, entry_count, entries, written_by) VALUES ('TOP_GAINERS', "
        "'TOP_5', " +
        at + ", '" + day + "', 0, '\\x', " + w + ")");
    db_->Query(
        "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
        "quote_data, written_by) VALUES ('INFY', " +
        at + ", '" + day + "', '\\x', " + w + ")");
    db_->Query(
        "INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc, "
        "quote_data, written_by) VALUES (" +
        at + ", '" + day +
        "', 0.5, "
        "'\\x', " +
        w + ")");
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<Repositories> repos_;
};

TEST_F(AdminStorageTest, ListPagesByIdWithTotal) {
  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(NewDeveloper("dev" + std::to_string(i)));
  auto first = repos_->developers.List(0, 2);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->total, 5);
  EXPECT_TRUE(first->more);
  ASSERT_EQ(first->developers.size(), 2u);
  EXPECT_EQ(first->developers[0].id, ids[0]);
  EXPECT_EQ(first->developers[1].id, ids[1]);
  auto last = repos_->developers.List(ids[3], 2);
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_FALSE(last->more);
  ASSERT_EQ(last->developers.size(), 1u);
  EXPECT_EQ(last->developers[0].username, "dev4");
  auto exact = repos_->developers.List(ids[2], 2);
  EXPECT_FALSE(exact->more);  // exactly two left: no empty page after
  EXPECT_EQ(exact->developers.size(), 2u);
}

TEST_F(AdminStorageTest, FindAndReplaceTokenHash) {
  const int64_t id = NewDeveloper("alice");
  EXPECT_EQ((*repos_->developers.Find(id))->username, "alice");
  EXPECT_FALSE(repos_->developers.Find(id + 100)->has_value());
  const std::string old_hash = (*repos_->developers.Find(id))->token_hash;
  const std::string new_hash = domain::HashToken("new");
  auto replaced = repos_->developers.ReplaceTokenHash(id, new_hash);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(repos_->developers.FindByTokenHash(old_hash)->has_value());
  EXPECT_EQ((*repos_->developers.FindByTokenHash(new_hash))->id, id);
  EXPECT_EQ(
      repos_->developers.ReplaceTokenHash(id + 100, new_hash).status().code(),
      absl::StatusCode::kNotFound);
  auto by_name = repos_->developers.ReplaceTokenHashByUsername(
      "alice", domain::HashToken("newer"));
  ASSERT_TRUE(by_name.ok()) << by_name.status();
  EXPECT_EQ(by_name->id, id);
  EXPECT_EQ(repos_->developers
                .ReplaceTokenHashByUsername("nobody", domain::HashToken("x"))
                .status()
                .code(),
            absl::StatusCode::kNotFound);
}

// The market data has no foreign key to its writer (migration 0005): a
// write under way holds its writer FOR KEY SHARE (MDC_WRITER_CTE), so a
// delete waits for it and then clears what it wrote.
TEST_F(AdminStorageTest, DeleteWaitsForAWriteUnderWayAndClearsIt) {
  NewDeveloper("keeper", "admin");
  const int64_t id = NewDeveloper("busy");
  const std::string w = std::to_string(id);
  auto writer = db_->pool().Acquire();
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE((*writer)
                  ->ExecScript("BEGIN; SELECT id FROM developers WHERE id = " +
                               w + " FOR KEY SHARE")
                  .ok());
  ASSERT_TRUE((*writer)
                  ->ExecScript("INSERT INTO nifty_quotes (observed_at, "
                               "trading_day, day_change_perc, quote_data, "
                               "written_by) VALUES ('2025-03-04T05:00:00Z', "
                               "'2025-03-04', 0.5, '\\x', " +
                               w + ")")
                  .ok());
  std::atomic<bool> deleted{false};
  absl::Status status;
  std::thread deleter([&] {
    status = repos_->developers.Delete(id);
    deleted = true;
  });
  // Waits until a session of this database waits for a lock: the delete
  // behind the open write (no other session of it takes locks meanwhile).
  // On a connection of its own: the writer and the delete hold the pool's.
  auto watcher = Connection::Open(db_->url());
  ASSERT_TRUE(watcher.ok()) << watcher.status();
  auto lock_waiters = [&] {
    auto waiting = (*watcher)->ExecScript(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = "
        "current_database() AND wait_event_type = 'Lock'");
    return waiting.ok() ? waiting->String(0, 0) : waiting.status().ToString();
  };
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (!deleted.load() && lock_waiters() == "0" && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(5));  // polling, not ordering
  }
  EXPECT_FALSE(deleted.load()) << "the delete did not wait for the write";
  ASSERT_TRUE((*writer)->ExecScript("COMMIT").ok());
  deleter.join();
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Count("developers", "id = " + w), "0");
  EXPECT_EQ(Count("nifty_quotes",
                  "observed_at = '2025-03-04T05:00:00Z' AND "
                  "written_by IS NULL"),
            "1");
}

TEST_F(AdminStorageTest, DeleteTakesRunsAndOrdersAndKeepsMarketData) {
  NewDeveloper("keeper", "admin");
  const int64_t id = NewDeveloper("leaver");
  const std::string w = std::to_string(id);
  db_->Query("INSERT INTO runs (developer_id, start_at, end_at) VALUES (" + w +
             ", now(), now())");
  db_->Query(
      "INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price, "
      "take_profit_price, ordered_at) SELECT id, 'INFY', 100, 90, 110, now() "
      "FROM runs WHERE developer_id = " +
      w);
  InsertMarketData("2025-03-03", id);
  ASSERT_EQ(Count("orders"), "1");

  ASSERT_TRUE(repos_->developers.Delete(id).ok());
  EXPECT_EQ(Count("developers", "id = " + w), "0");
  EXPECT_EQ(Count("runs"), "0");
  EXPECT_EQ(Count("orders"), "0");
  EXPECT_EQ(Count("stock_quotes", "written_by IS NULL"), "1");
  EXPECT_EQ(Count("shortlist_snapshots", "written_by IS NULL"), "1");
  EXPECT_EQ(Count("nifty_quotes", "written_by IS NULL"), "1");
  EXPECT_EQ(repos_->developers.Delete(id).code(), absl::StatusCode::kNotFound);
}

TEST_F(AdminStorageTest, LastAdminCannotBeDeleted) {
  const int64_t first = NewDeveloper("root", "admin");
  const int64_t dev = NewDeveloper("plain");
  absl::Status refused = repos_->developers.Delete(first);
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.message().find("last admin"), std::string::npos);
  EXPECT_TRUE(repos_->developers.Delete(dev).ok());  // developers: no rule
  const int64_t second = NewDeveloper("root2", "admin");
  EXPECT_TRUE(repos_->developers.Delete(first).ok());
  EXPECT_EQ(repos_->developers.Delete(second).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Count("developers", "role = 'admin'"), "1");
}

TEST_F(AdminStorageTest, ConcurrentDeletesOfTwoAdminsLeaveOne) {
  int64_t survivor = NewDeveloper("admin0", "admin");
  for (int round = 1; round <= 15; ++round) {
    const int64_t fresh =
        NewDeveloper("admin" + std::to_string(round), "admin");
    absl::Status a, b;
    std::thread ta([&] { a = repos_->developers.Delete(survivor); });
    std::thread tb([&] { b = repos_->developers.Delete(fresh); });
    ta.join();
    tb.join();
    ASSERT_NE(a.ok(), b.ok()) << "round " << round << ": " << a << " / " << b;
    const absl::Status& refused = a.ok() ? b : a;
    EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
    ASSERT_EQ(Count("developers", "role = 'admin'"), "1");
    survivor = a.ok() ? fresh : survivor;
  }
}

TEST_F(AdminStorageTest, LastSeenIsWrittenAtMostOncePerMinute) {
  const int64_t id = NewDeveloper("seen");
  const std::string w = std::to_string(id);
  EXPECT_EQ(Count("developers", "id = " + w + " AND last_seen_at IS NULL"),
            "1");
  ASSERT_TRUE(repos_->developers.TouchLastSeen(id).ok());
  const std::string stamped =
      db_->Query("SELECT last_seen_at::text FROM developers WHERE id = " + w);
  ASSERT_FALSE(stamped.empty());
  const std::string xmin =
      db_->Query("SELECT xmin::text FROM developers WHERE id = " + w);
  ASSERT_TRUE(repos_->developers.TouchLastSeen(id).ok());
  // No new row version: nothing was written.
  EXPECT_EQ(db_->Query("SELECT xmin::text FROM developers WHERE id = " + w),
            xmin);
  db_->Query(
      "UPDATE developers SET last_seen_at = now() - interval '61 seconds' "
      "WHERE id = " +
      w);
  ASSERT_TRUE(repos_->developers.TouchLastSeen(id).ok());
  EXPECT_EQ(
      Count("developers",
            "id = " + w + " AND last_seen_at > now() - interval '5 seconds'"),
      "1");
}

TEST_F(AdminStorageTest, DeleteDaysTakesOnlyMarketDataOfThoseDays) {
  const int64_t writer = NewDeveloper("writer");
  InsertMarketData("2025-03-03", writer, 0);
  InsertMarketData("2025-03-03", writer, 1);
  InsertMarketData("2025-03-04", writer);
  InsertMarketData("2025-03-05", writer);
  db_->Query(
      "INSERT INTO holidays (holiday_date, name) VALUES ('2025-03-03', 'x')");
  db_->Query("INSERT INTO runs (developer_id, start_at, end_at) VALUES (" +
             std::to_string(writer) + ", now(), now())");

  auto deleted = repos_->market_data.DeleteDays({absl::CivilDay(2025, 3, 3),
                                                 absl::CivilDay(2025, 3, 5),
                                                 absl::CivilDay(2025, 3, 9)});
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted->shortlists, 3);
  EXPECT_EQ(deleted->quotes, 3);
  EXPECT_EQ(deleted->nifty_quotes, 3);
  for (const char* table :
       {"shortlist_snapshots", "stock_quotes", "nifty_quotes"}) {
    EXPECT_EQ(Count(table), "1") << table;
    EXPECT_EQ(Count(table, "trading_day = '2025-03-04'"), "1") << table;
  }
  EXPECT_EQ(Count("holidays"), "1");
  EXPECT_EQ(Count("runs"), "1");
  EXPECT_EQ(Count("developers"), "1");
}

TEST_F(AdminStorageTest, PurgeBeforeCountsOnDryRunAndDeletesOtherwise) {
  const int64_t writer = NewDeveloper("writer");
  InsertMarketData("2025-01-02", writer);
  InsertMarketData("2025-01-03", writer);
  InsertMarketData("2025-02-01", writer);
  auto counted =
      repos_->market_data.PurgeBefore(absl::CivilDay(2025, 2, 1), true);
  ASSERT_TRUE(counted.ok()) << counted.status();
  EXPECT_EQ(counted->total(), 6);
  EXPECT_EQ(Count("stock_quotes"), "3");
  auto purged =
      repos_->market_data.PurgeBefore(absl::CivilDay(2025, 2, 1), false);
  ASSERT_TRUE(purged.ok()) << purged.status();
  EXPECT_EQ(purged->shortlists, 2);
  EXPECT_EQ(purged->quotes, 2);
  EXPECT_EQ(purged->nifty_quotes, 2);
  EXPECT_EQ(Count("stock_quotes"), "1");
  EXPECT_EQ(Count("nifty_quotes", "trading_day = '2025-02-01'"), "1");
}

TEST_F(AdminStorageTest, MaintenanceScriptsRun) {
  auto analyzed = repos_->maintenance.Analyze(false);
  ASSERT_TRUE(analyzed.ok()) << analyzed.status();
  EXPECT_GE(analyzed->affected, 9);
  EXPECT_EQ(analyzed->log.front(), "analyzed developers");
  auto vacuumed = repos_->maintenance.Vacuum(false);  // not in a transaction
  ASSERT_TRUE(vacuumed.ok()) << vacuumed.status();
  EXPECT_EQ(vacuumed->affected, analyzed->affected);
  auto dry = repos_->maintenance.Vacuum(true);
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_EQ(dry->log.front().rfind("would vacuum developers", 0), 0u)
      << dry->log.front();
}

TEST_F(AdminStorageTest, DedupeCheckFindsSymbolsSplitByCase) {
  const int64_t writer = NewDeveloper("writer");
  InsertMarketData("2025-03-03", writer);
  auto clean = repos_->maintenance.DedupeCheck();
  ASSERT_TRUE(clean.ok()) << clean.status();
  EXPECT_EQ(clean->affected, 0);
  db_->Query(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "quote_data) VALUES (' infy', '2025-03-03 10:00:00+05:30', "
      "'2025-03-03', '\\x')");
  auto found = repos_->maintenance.DedupeCheck();
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(found->affected, 1);
  bool reported = false;
  for (const auto& line : found->log) {
    reported = reported || (line.find("INFY") != std::string::npos &&
                            line.find("stored 2 times") != std::string::npos);
  }
  EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace mdc::storage
