// The stream positions of market records (migration 0009) against a real
// PostgreSQL, with transactions held open from other sessions: a record
// whose transaction commits after a later-started one's never appears at a
// place a reader has already passed. This is what lets commits run in
// parallel (no commit-order lock) while "after cursor" stays exact.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "domain/stream_cursors.h"
#include "storage/market_event_repository.h"
#include "storage/migrations.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

using domain::StreamPosition;

// A session of its own, for holding a transaction open.
class Session {
 public:
  explicit Session(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    EXPECT_EQ(PQstatus(conn_), CONNECTION_OK) << PQerrorMessage(conn_);
  }
  ~Session() { PQfinish(conn_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void Exec(const std::string& sql) {
    PGresult* result = PQexec(conn_, sql.c_str());
    const ExecStatusType status = PQresultStatus(result);
    EXPECT_TRUE(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        << sql << ": " << PQerrorMessage(conn_);
    PQclear(result);
  }

 private:
  PGconn* conn_;
};

// A NIFTY quote at 2025-03-03 09:15 IST + `minute` minutes (empty payload:
// a valid, empty QuoteData).
std::string InsertNifty(int minute) {
  return absl::StrCat(
      "INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc, "
      "quote_data) VALUES ('2025-03-03 03:45:00+00'::timestamptz + ",
      minute,
      " * interval '1 minute', '2025-03-03', 0.5, '') "
      "ON CONFLICT (observed_at, trading_day) DO UPDATE SET "
      "day_change_perc = 1.5");
}

// The instants (as minutes) of `events`, in order.
std::vector<int> Minutes(const std::vector<StreamEvent>& events) {
  std::vector<int> minutes;
  for (const StreamEvent& event : events) {
    minutes.push_back(static_cast<int>(
        (event.event.nifty().timestamp().seconds() - 1740973500) / 60));
  }
  return minutes;
}

// The horizon is the whole PostgreSQL cluster's: a transaction of another
// test's database, running at the same time, may hold records back for a
// moment. So a read that must find records reads until it does (or gives
// up after a long while: then the records were lost).
absl::StatusOr<CommittedPage> ReadFinal(MarketEventRepository& events,
                                        StreamPosition after, size_t want) {
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (true) {
    auto page = events.ListCommitted(after, 100);
    if (!page.ok() || page->events.size() >= want || absl::Now() > deadline) {
      return page;
    }
    absl::SleepFor(absl::Milliseconds(20));  // polling, not ordering
  }
}

class MarketEventHorizonTest : public ::testing::Test {
 protected:
  testing::TestDatabase db_;
  MarketEventRepository events_{db_.pool()};
};

TEST_F(MarketEventHorizonTest, ALaterCommitWaitsForAnOlderOpenTransaction) {
  auto start = events_.LatestPosition();
  ASSERT_TRUE(start.ok()) << start.status();

  // The older transaction writes first (so it has the smaller id), the
  // younger one commits first.
  Session older(db_.url());
  Session younger(db_.url());
  older.Exec("BEGIN");
  older.Exec(InsertNifty(1));
  younger.Exec(InsertNifty(2));  // commits

  auto first = events_.ListCommitted(*start, 100);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->events.empty())
      << "a committed record was handed out while an older transaction that "
         "could still commit before it was open";
  EXPECT_TRUE(first->held_back);
  auto latest = events_.LatestPosition();
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(*latest, *start);

  older.Exec("COMMIT");
  auto second = ReadFinal(events_, *start, 2);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(Minutes(second->events), (std::vector<int>{1, 2}));
  ASSERT_EQ(second->events.size(), 2u);
  EXPECT_LT(second->events[0].position, second->events[1].position);
  EXPECT_EQ(second->events[1].event.cursor(),
            domain::EncodeWatchCursor(second->events[1].position));
  latest = events_.LatestPosition();
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(*latest, second->events[1].position);
}

TEST_F(MarketEventHorizonTest,
       AnUnrelatedOpenTransactionDelaysButLosesNothing) {
  auto start = events_.LatestPosition();
  ASSERT_TRUE(start.ok());
  // Any transaction with an id holds the horizon, not only market writes.
  Session other(db_.url());
  other.Exec("BEGIN");
  other.Exec("SELECT pg_current_xact_id()");
  Session writer(db_.url());
  writer.Exec(InsertNifty(3));

  auto held = events_.ListCommitted(*start, 100);
  ASSERT_TRUE(held.ok());
  EXPECT_TRUE(held->events.empty());
  EXPECT_TRUE(held->held_back);

  other.Exec("ROLLBACK");
  auto after = ReadFinal(events_, *start, 1);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(Minutes(after->events), (std::vector<int>{3}));
}

TEST_F(MarketEventHorizonTest, AReplacedRecordMovesToItsNewTransaction) {
  Session writer(db_.url());
  writer.Exec(InsertNifty(4));
  writer.Exec(InsertNifty(5));
  auto start = events_.LatestPosition();
  ASSERT_TRUE(start.ok());
  writer.Exec(InsertNifty(4));  // an upsert: last write wins

  auto page = ReadFinal(events_, *start, 1);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(Minutes(page->events), (std::vector<int>{4}));
  EXPECT_EQ(page->events[0].event.nifty().day_change_perc(), 1.5);
  EXPECT_LT(*start, page->events[0].position);
}

TEST_F(MarketEventHorizonTest, PagesAndCatchUpRangesAreExact) {
  auto start = events_.LatestPosition();
  ASSERT_TRUE(start.ok());
  Session writer(db_.url());
  writer.Exec("BEGIN");
  for (int minute = 10; minute < 15; ++minute) writer.Exec(InsertNifty(minute));
  writer.Exec("COMMIT");
  writer.Exec(InsertNifty(15));

  auto all = ReadFinal(events_, *start, 6);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->events.size(), 6u);

  // Pages of two, each resuming after the last: every record once.
  std::vector<int> paged;
  StreamPosition after = *start;
  while (true) {
    auto page = events_.ListCommitted(after, 2);
    ASSERT_TRUE(page.ok());
    if (page->events.empty()) break;
    for (int minute : Minutes(page->events)) paged.push_back(minute);
    after = page->events.back().position;
  }
  EXPECT_EQ(paged, (std::vector<int>{10, 11, 12, 13, 14, 15}));

  // A watch's catch-up reads (after, up_to]: up_to is the record of 13.
  auto range = events_.ListNiftySince(all->events[1].position,
                                      all->events[3].position, 100);
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(Minutes(*range), (std::vector<int>{12, 13}));
}

// Records stored before migration 0009 have txid 0: a cursor of those days
// (the seq alone) resumes in the right place, before everything newer.
TEST(MarketEventHorizonMigration, RecordsFromBeforeComeFirstInSeqOrder) {
  testing::TestDatabase db("0008_market_events.sql");
  db.Query(
      "INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc, "
      "quote_data) SELECT '2025-03-03 03:45:00+00'::timestamptz + m * "
      "interval '1 minute', '2025-03-03', 0.5, '' FROM generate_series(0, 2) "
      "AS m");
  const std::string old_cursor = db.Query(
      "SELECT seq FROM nifty_quotes WHERE observed_at = "
      "'2025-03-03 03:45:00+00'");
  auto applied = ApplyMigrations(db.pool(), EmbeddedMigrations());
  ASSERT_TRUE(applied.ok()) << applied.status();
  db.Query(InsertNifty(7));

  auto cursor = domain::ParseWatchCursor(old_cursor);
  ASSERT_TRUE(cursor.ok()) << old_cursor;
  MarketEventRepository events(db.pool());
  auto page = ReadFinal(events, *cursor, 3);
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(Minutes(page->events), (std::vector<int>{1, 2, 7}));
  EXPECT_EQ(page->events[0].position.txid, 0);
  EXPECT_GT(page->events[2].position.txid, 0);
}

}  // namespace
}  // namespace mdc::storage
