// Rows stored outside the supported instants (written before the range was
// enforced, here inserted with SQL): every read that meets them still
// answers, with timestamps a google.protobuf.Timestamp can carry (an
// out-of-range one fails JSON encoding: the 500 of a poison record), and
// migration 0006 lists them in the view out_of_range_instants.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "storage/migrations.h"
#include "storage/pool.h"
#include "storage/repositories.h"
#include "tests/support/repository_test.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

absl::Time Utc(int y, int m, int d, int hh = 0) {
  return absl::FromCivil(absl::CivilSecond(y, m, d, hh, 0, 0),
                         absl::UTCTimeZone());
}

// Whether `t` is a Timestamp the JSON encoding accepts.
::testing::AssertionResult Encodable(const google::protobuf::Timestamp& t) {
  if (t.seconds() >= domain::kMinTimestampSeconds &&
      t.seconds() <= domain::kMaxTimestampSeconds && t.nanos() >= 0 &&
      t.nanos() <= 999999999) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "outside the Timestamp range: " << t.ShortDebugString();
}

// '0001-01-01T00:00:00' in Asia/Kolkata (year 0 in UTC: LMT +05:21:10
// applies) and '9999-12-31T23:00:00' at -04:00, and both ends of what a
// Timestamp carries: what the collector writes accepted before the fix.
constexpr char kInsertPoison[] = R"sql(
INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc,
                          quote_data) VALUES
  ('0001-01-01 00:00:00+05:21:10', '0001-01-01', 0, ''),
  ('0001-01-01 00:00:00+00', '0001-01-01', 0, ''),
  ('9999-12-31 23:00:00+00', '10000-01-01', 0, ''),
  ('9999-12-31 23:00:00-04', '10000-01-01', 0, '');
INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price,
                          quote_data) VALUES
  ('POISON', '0001-01-01 00:00:00+05:21:10', '0001-01-01', 1, ''),
  ('POISON', '0001-01-01 00:00:00+00', '0001-01-01', 1, ''),
  ('POISON', '9999-12-31 23:00:00+00', '10000-01-01', 1, ''),
  ('POISON', '9999-12-31 23:00:00-04', '10000-01-01', 1, '');
INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at,
                                 trading_day, entry_count, entries) VALUES
  ('TOP_GAINERS', 'FULL', '0001-01-01 00:00:00+05:21:10', '0001-01-01', 0, ''),
  ('TOP_GAINERS', 'FULL', '9999-12-31 23:00:00-04', '10000-01-01', 0, '');
)sql";

class OutOfRangeReadsTest : public testing::RepositoryTest {
 protected:
  static void SetUpTestSuite() {
    RepositoryTest::SetUpTestSuite();
    db_->Query(kInsertPoison);
  }
};

// Before the fix each of these answered a Timestamp with seconds below
// -62135596800 or above 253402300799, which the gateway could not encode.
TEST_F(OutOfRangeReadsTest, NiftyReadsOfThoseDaysAnswer) {
  auto latest = repos_->nifty.FindLatest(Utc(0, 12, 31), Utc(1, 1, 1, 12));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_TRUE(Encodable((*latest)->timestamp()));

  auto early =
      repos_->nifty.ListRange(Utc(0, 12, 1), Utc(1, 1, 2), std::nullopt, 100);
  ASSERT_TRUE(early.ok()) << early.status();
  ASSERT_EQ(early->size(), 2u);
  for (const auto& quote : *early) EXPECT_TRUE(Encodable(quote.timestamp()));
  EXPECT_EQ((*early)[0].timestamp().seconds(), domain::kMinTimestampSeconds);

  auto late = repos_->nifty.ListRange(Utc(9999, 12, 31), Utc(10000, 1, 2),
                                      std::nullopt, 100);
  ASSERT_TRUE(late.ok()) << late.status();
  ASSERT_EQ(late->size(), 2u);
  for (const auto& quote : *late) EXPECT_TRUE(Encodable(quote.timestamp()));
  EXPECT_EQ((*late)[1].timestamp().seconds(), domain::kMaxTimestampSeconds);
}

TEST_F(OutOfRangeReadsTest, QuoteReadsOfThoseDaysAnswer) {
  auto latest =
      repos_->quotes.FindLatest("POISON", Utc(9999, 12, 31), Utc(10001, 1, 1));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_TRUE(Encodable((*latest)->timestamp()));

  auto all = repos_->quotes.ListRange("POISON", Utc(0, 1, 1), Utc(10001, 1, 1),
                                      std::nullopt, 100);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 4u);
  for (const auto& quote : *all) EXPECT_TRUE(Encodable(quote.timestamp()));

  auto batch = repos_->quote_batches.FindLatestOfSymbols(
      {"POISON"}, Utc(0, 12, 31), Utc(1, 1, 1, 12));
  ASSERT_TRUE(batch.ok()) << batch.status();
  ASSERT_EQ(batch->count("POISON"), 1u);
  EXPECT_TRUE(Encodable(batch->at("POISON").timestamp()));
}

TEST_F(OutOfRangeReadsTest, ShortlistReadsOfThoseDaysAnswer) {
  auto latest = repos_->shortlists.FindLatest(v1::TOP_GAINERS, v1::FULL,
                                              Utc(0, 12, 31), Utc(1, 1, 1, 12));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_TRUE(Encodable((*latest)->timestamp()));

  auto all =
      repos_->shortlists.ListRange(v1::TOP_GAINERS, v1::FULL, Utc(0, 1, 1),
                                   Utc(10001, 1, 1), std::nullopt, 100);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  for (const auto& s : *all) EXPECT_TRUE(Encodable(s.timestamp()));

  auto day = repos_->shortlists.ListDaySnapshots(
      v1::TOP_GAINERS, v1::FULL, absl::CivilDay(10000, 1, 1), Utc(10001, 1, 1));
  ASSERT_TRUE(day.ok()) << day.status();
  ASSERT_EQ(day->size(), 1u);
  EXPECT_TRUE(Encodable((*day)[0].timestamp()));
}

// A database migrated up to 0005 that already holds such rows, as a
// deployment upgrading to 0006 has.
class OutOfRangeMigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* admin = std::getenv("MDC_TEST_DATABASE_URL");
    ASSERT_NE(admin, nullptr) << "MDC_TEST_DATABASE_URL is not set";
    admin_url_ = admin;
    std::random_device random;
    name_ = absl::StrCat("mdc_test_0006_", random(), random());
    ASSERT_TRUE(Run(admin_url_, absl::StrCat("CREATE DATABASE ", name_)));
    pool_ = std::make_unique<ConnectionPool>(
        testing::WithDatabase(admin_url_, name_), 2);
  }

  void TearDown() override {
    pool_.reset();
    Run(admin_url_,
        absl::StrCat("DROP DATABASE IF EXISTS ", name_, " WITH (FORCE)"));
  }

  static bool Run(const std::string& url, const std::string& sql) {
    auto conn = Connection::Open(url);
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return false;
    auto result = (*conn)->ExecScript(sql);
    EXPECT_TRUE(result.ok()) << sql << ": " << result.status();
    return result.ok();
  }

  // The first column of every row of `sql`, as text.
  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> rows;
    auto conn = pool_->Acquire();
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return rows;
    auto result = (*conn)->ExecScript(sql);
    EXPECT_TRUE(result.ok()) << sql << ": " << result.status();
    if (!result.ok()) return rows;
    for (int row = 0; row < result->rows(); ++row) {
      rows.push_back(result->String(row, 0));
    }
    return rows;
  }

  std::string admin_url_;
  std::string name_;
  std::unique_ptr<ConnectionPool> pool_;
};

TEST_F(OutOfRangeMigrationTest, ListsRowsStoredBeforeTheRangeWasEnforced) {
  std::vector<Migration> before;
  for (const Migration& m : EmbeddedMigrations()) {
    if (std::string(m.name) < "0006") before.push_back(m);
  }
  ASSERT_TRUE(ApplyMigrations(*pool_, before).ok());

  ASSERT_TRUE(Run(testing::WithDatabase(admin_url_, name_),
                  std::string(kInsertPoison) + R"sql(
INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc,
                          quote_data) VALUES
  ('1900-01-01 00:00:00+00', '1900-01-01', 0, ''),
  ('2199-12-31 23:59:59.999999+00', '2200-01-01', 0, ''),
  ('1899-12-31 23:59:59.999999+00', '1900-01-01', 0, ''),
  ('2200-01-01 00:00:00+00', '2200-01-01', 0, ''),
  ('2025-12-31 09:15:00+05:30', '2025-12-31', 0, '');
INSERT INTO developers (username, role, token_hash)
  VALUES ('owner', 'developer', sha256('owner'));
INSERT INTO runs (developer_id, start_at, end_at)
  SELECT id, '0001-01-01 00:00:00+00', '2025-01-01 00:00:00+00'
    FROM developers;
INSERT INTO runs (developer_id, start_at, end_at)
  SELECT id, '2025-01-01 00:00:00+00', '2025-01-02 00:00:00+00'
    FROM developers;
INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price,
                    take_profit_price, ordered_at)
  SELECT max(id), 'TCS', 10, 9, 11, '9999-12-31 23:00:00-04' FROM runs;
)sql"));

  auto applied = ApplyMigrations(*pool_, EmbeddedMigrations());
  ASSERT_TRUE(applied.ok()) << applied.status();
  ASSERT_FALSE(applied->empty());
  EXPECT_EQ(applied->front(), "0006_out_of_range_instants.sql");

  // Nothing was deleted.
  EXPECT_EQ(Rows("SELECT count(*) FROM nifty_quotes"),
            std::vector<std::string>{"9"});
  const std::vector<std::string> listed = Rows(
      "SELECT concat_ws('|', table_name, row_key, column_name, "
      "instant AT TIME ZONE 'UTC', coalesce(trading_day::text, 'NULL')) "
      "FROM out_of_range_instants ORDER BY table_name, column_name, instant");
  EXPECT_EQ(listed,
            (std::vector<std::string>{
                "nifty_quotes|NIFTY|observed_at|0001-12-31 "
                "18:38:50 BC|0001-01-01",
                "nifty_quotes|NIFTY|observed_at|0001-01-01 00:00:00|"
                "0001-01-01",
                "nifty_quotes|NIFTY|observed_at|1899-12-31 "
                "23:59:59.999999|1900-01-01",
                "nifty_quotes|NIFTY|observed_at|2200-01-01 00:00:00|"
                "2200-01-01",
                "nifty_quotes|NIFTY|observed_at|9999-12-31 23:00:00|"
                "10000-01-01",
                "nifty_quotes|NIFTY|observed_at|10000-01-01 03:00:00|"
                "10000-01-01",
                "orders|1|ordered_at|10000-01-01 03:00:00|NULL",
                "runs|1|start_at|0001-01-01 00:00:00|NULL",
                "shortlist_snapshots|TOP_GAINERS FULL|observed_at|0001-12-31 "
                "18:38:50 BC|0001-01-01",
                "shortlist_snapshots|TOP_GAINERS FULL|observed_at|10000-01-01 "
                "03:00:00|10000-01-01",
                "stock_quotes|POISON|observed_at|0001-12-31 18:38:50 "
                "BC|0001-01-01",
                "stock_quotes|POISON|observed_at|0001-01-01 00:00:00|"
                "0001-01-01",
                "stock_quotes|POISON|observed_at|9999-12-31 23:00:00|"
                "10000-01-01",
                "stock_quotes|POISON|observed_at|10000-01-01 03:00:00|"
                "10000-01-01",
            }));
}

}  // namespace
}  // namespace mdc::storage
