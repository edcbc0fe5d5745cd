// The import's staging and merge against a real PostgreSQL: nothing is
// visible before the merge, the last record of a key wins, a record equal
// to the stored one is left as it is (its place in the streams too), and a
// session dropped before its merge leaves nothing behind.
#include "storage/import_repository.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// 2035-03-06 09:15 IST + `seconds`.
absl::Time At(int seconds) {
  return absl::FromUnixSeconds(2056765500) + absl::Seconds(seconds);
}

domain::ImportedQuote Quote(const std::string& symbol, int seconds,
                            double price) {
  domain::ImportedQuote q;
  q.symbol = symbol;
  q.observed_at = At(seconds);
  q.trading_day = absl::CivilDay(2035, 3, 6);
  q.quote.set_status(v1::SUCCESS);
  q.quote.mutable_payload()->set_last_price(price);
  return q;
}

class ImportRepositoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    writer_ = std::stoll(
        db_.Query("INSERT INTO developers (username, role, token_hash) VALUES "
                  "('importer', 'admin', sha256('t')) RETURNING id"));
  }
  std::string Count() {
    return db_.Query(
        "SELECT count(*) FROM stock_quotes WHERE trading_day = '2035-03-06'");
  }
  // The stream place of the quote of `symbol` at `seconds`.
  std::string Place(const std::string& symbol, int seconds) {
    return db_.Query(
        "SELECT txid::text || '/' || seq FROM stock_quotes WHERE nse_symbol "
        "= '" +
        symbol + "' AND observed_at = to_timestamp(" +
        std::to_string(absl::ToUnixSeconds(At(seconds))) + ")");
  }

  testing::TestDatabase db_;
  // The admin the imports are written by.
  int64_t writer_ = 0;
};

TEST_F(ImportRepositoryTest, NothingIsStoredBeforeTheMergeAndAllAtIt) {
  auto session = ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
  ASSERT_TRUE(session.ok()) << session.status();
  ASSERT_TRUE(
      (*session)->Stage({Quote("AAA", 0, 10), Quote("BBB", 0, 20)}).ok());
  ASSERT_TRUE((*session)->Stage({Quote("AAA", 1, 11)}).ok());
  EXPECT_EQ(Count(), "0") << "staged records are visible before the merge";
  auto counts = (*session)->Merge(writer_);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->keys, 3);
  EXPECT_EQ(counts->written, 3);
  EXPECT_EQ(Count(), "3");
  EXPECT_EQ(db_.Query("SELECT last_price FROM stock_quotes WHERE nse_symbol = "
                      "'AAA' ORDER BY observed_at DESC LIMIT 1"),
            "11");
}

TEST_F(ImportRepositoryTest, TheLastRecordOfAKeyWins) {
  auto session = ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
  ASSERT_TRUE(session.ok());
  ASSERT_TRUE((*session)->Stage({Quote("AAA", 0, 10)}).ok());
  ASSERT_TRUE((*session)->Stage({Quote("AAA", 0, 12)}).ok());
  auto counts = (*session)->Merge(writer_);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->keys, 1);
  EXPECT_EQ(db_.Query("SELECT last_price FROM stock_quotes"), "12");
}

TEST_F(ImportRepositoryTest, AnEqualRecordIsLeftAsItIsAndAChangedOneReplaced) {
  {
    auto first = ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
    ASSERT_TRUE(first.ok());
    ASSERT_TRUE(
        (*first)->Stage({Quote("AAA", 0, 10), Quote("BBB", 0, 20)}).ok());
    ASSERT_TRUE((*first)->Merge(writer_).ok());
  }
  const std::string same_before = Place("AAA", 0);
  const std::string changed_before = Place("BBB", 0);
  auto again = ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE((*again)->Stage({Quote("AAA", 0, 10), Quote("BBB", 0, 21)}).ok());
  auto counts = (*again)->Merge(writer_);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->keys, 2);
  EXPECT_EQ(counts->written, 1);
  EXPECT_EQ(Place("AAA", 0), same_before)
      << "an unchanged record moved in the streams";
  EXPECT_NE(Place("BBB", 0), changed_before);
  EXPECT_EQ(db_.Query("SELECT last_price FROM stock_quotes WHERE nse_symbol = "
                      "'BBB'"),
            "21");
}

TEST_F(ImportRepositoryTest, ASessionEndedBeforeItsMergeLeavesNothing) {
  {
    auto session =
        ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE((*session)->Stage({Quote("AAA", 0, 10)}).ok());
  }
  EXPECT_EQ(Count(), "0");
  // The connection went back to the pool without its staging table: the
  // next import on it starts empty.
  auto next = ImportSession::Open(db_.pool(), ImportSession::Kind::kQuotes);
  ASSERT_TRUE(next.ok()) << next.status();
  auto counts = (*next)->Merge(writer_);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->keys, 0);
  EXPECT_EQ(Count(), "0");
}

TEST_F(ImportRepositoryTest, NiftyAndShortlistsMergeByTheirKeys) {
  // Each session in a scope of its own: a session holds a connection of
  // the test's small pool until it ends.
  {
    domain::ImportedNifty nifty;
    nifty.observed_at = At(0);
    nifty.trading_day = absl::CivilDay(2035, 3, 6);
    nifty.quote.set_status(v1::FAILURE);
    nifty.day_change_perc = -0.25;
    auto n = ImportSession::Open(db_.pool(), ImportSession::Kind::kNifty);
    ASSERT_TRUE(n.ok());
    ASSERT_TRUE((*n)->Stage({nifty, nifty}).ok());
    auto counts = (*n)->Merge(writer_);
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->keys, 1);
  }
  EXPECT_EQ(db_.Query("SELECT day_change_perc FROM nifty_quotes"), "-0.25");
  {
    domain::ImportedShortlist shortlist;
    shortlist.type = v1::TOP_GAINERS;
    shortlist.scope = v1::FULL;
    shortlist.observed_at = At(0);
    shortlist.trading_day = absl::CivilDay(2035, 3, 6);
    shortlist.entries.add_entries()->set_nse_symbol("AAA");
    auto s = ImportSession::Open(db_.pool(), ImportSession::Kind::kShortlists);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE((*s)->Stage({shortlist}).ok());
    auto counts = (*s)->Merge(writer_);
    ASSERT_TRUE(counts.ok()) << counts.status();
    EXPECT_EQ(counts->written, 1);
  }
  EXPECT_EQ(db_.Query("SELECT shortlist_type || ' ' || scope || ' ' || "
                      "entry_count FROM shortlist_snapshots"),
            "TOP_GAINERS FULL 1");
}

}  // namespace
}  // namespace mdc::storage
