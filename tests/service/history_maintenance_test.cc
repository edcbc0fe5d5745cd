// The history maintenance (partitions ahead, retention by
// MDC_RETENTION_MONTHS) over a real PostgreSQL, and its setting.
#include "service/lifecycle/history_maintenance.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "domain/retention.h"
#include "domain/time.h"
#include "storage/partition_repository.h"
#include "tests/support/config_from.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

absl::Time Ist(int y, int m, int d) {
  return absl::FromCivil(absl::CivilSecond(y, m, d, 10, 0, 0),
                         domain::ExchangeZone());
}

TEST(RetentionConfig, DefaultsToKeepingEverythingAndChecksItsRange) {
  auto config = testing::ConfigFrom({}, {});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->retention_months, 0);
  config = testing::ConfigFrom({{"MDC_RETENTION_MONTHS", "24"}}, {});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->retention_months, 24);
  config = testing::ConfigFrom({{"MDC_RETENTION_MONTHS", "24"}},
                               {"--retention-months=6"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->retention_months, 6);
  for (const char* bad : {"-1", "1201", "two", "1.5", ""}) {
    auto refused = testing::ConfigFrom({{"MDC_RETENTION_MONTHS", bad}}, {});
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("MDC_RETENTION_MONTHS"),
              std::string::npos)
        << refused.status();
  }
}

class HistoryMaintenanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<testing::TestDatabase>();
    partitions_ = std::make_unique<storage::PartitionRepository>(db_->pool());
  }

  // One NIFTY quote at 10:00 IST of `day` (YYYY-MM-DD).
  void InsertNifty(const std::string& day) {
    db_->Query(absl::StrCat(
        "INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc, "
        "quote_data) VALUES ('",
        day, " 10:00:00+05:30', '", day, "', 0.5, '\\x')"));
  }

  std::string Exists(const std::string& table) {
    return db_->Query("SELECT to_regclass('" + table + "') IS NOT NULL");
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::PartitionRepository> partitions_;
};

// "Now" is June 2030 here: the pass makes June to September 2030 and drops
// what the retention leaves behind, old rows in DEFAULT included.
TEST_F(HistoryMaintenanceTest, DropsWhatRetentionLeavesThenCreatesAhead) {
  for (const char* day : {"2029-12-31", "2030-01-02", "2030-03-15"}) {
    InsertNifty(day);
  }
  InsertNifty("1850-01-01");  // outside the supported years: DEFAULT
  ASSERT_TRUE(partitions_->EnsurePartitions(0, absl::Seconds(5)).ok());
  ASSERT_EQ(Exists("nifty_quotes_p2029_12"), "t");

  // Five months kept before June: January to May 2030.
  auto report = MaintainHistory(*partitions_, 5, Ist(2030, 6, 20));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->rows_dropped.nifty_quotes, 2);  // December, 1850
  EXPECT_EQ(report->rows_dropped.quotes, 0);
  EXPECT_EQ(Exists("nifty_quotes_p2029_12"), "f");
  EXPECT_EQ(Exists("nifty_quotes_p2030_01"), "t");
  EXPECT_EQ(db_->Query("SELECT string_agg(trading_day::text, ',' ORDER BY "
                       "trading_day) FROM nifty_quotes"),
            "2030-01-02,2030-03-15");
  // The partitions ahead are those of the database's clock, not of the
  // pass's: the current month and domain::kPartitionMonthsAhead more.
  EXPECT_EQ(db_->Query(absl::StrCat(
                "SELECT count(*) FROM generate_series(0, ",
                domain::kPartitionMonthsAhead,
                ") AS n WHERE to_regclass('stock_quotes_p' || "
                "to_char(date_trunc('month', now() AT TIME ZONE "
                "'Asia/Kolkata') + make_interval(months => n), 'YYYY_MM')) "
                "IS NOT NULL")),
            std::to_string(domain::kPartitionMonthsAhead + 1));

  // Without a retention nothing is dropped.
  report = MaintainHistory(*partitions_, 0, Ist(2040, 1, 1));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->rows_dropped.total(), 0);
  EXPECT_EQ(report->partitions_created, 0);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM nifty_quotes"), "2");
}

// The background thread runs a pass as soon as it starts: rows waiting in
// DEFAULT get their partition without anyone calling.
TEST_F(HistoryMaintenanceTest, TheThreadRunsAPassAtStart) {
  InsertNifty("2031-07-07");
  ASSERT_EQ(db_->Query("SELECT tableoid::regclass FROM nifty_quotes"),
            "nifty_quotes_default");
  {
    HistoryMaintenance maintenance(*partitions_, 0, absl::Hours(1));
    for (int i = 0; i < 500 && Exists("nifty_quotes_p2031_07") != "t"; ++i) {
      absl::SleepFor(absl::Milliseconds(20));  // polling, not ordering
    }
  }
  EXPECT_EQ(db_->Query("SELECT tableoid::regclass FROM nifty_quotes"),
            "nifty_quotes_p2031_07");
}

}  // namespace
}  // namespace mdc
