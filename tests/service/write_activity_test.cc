// The collectors' freshness over a real PostgreSQL: tallies of committed
// writes merged into developer_writes by WriteActivity, and the freshness
// gauge set from the database (what every server exports).
#include "service/lifecycle/write_activity.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "service/metrics/freshness_metrics.h"
#include "storage/developer_repository.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

class WriteActivityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<testing::TestDatabase>();
    developers_ = std::make_unique<storage::DeveloperRepository>(db_->pool());
    writes_ = std::make_unique<storage::DeveloperWriteRepository>(db_->pool());
    metrics_ = std::make_unique<FreshnessMetrics>(registry_);
  }

  int64_t Developer(const std::string& name) {
    auto created = developers_->Create(
        name, "developer", domain::HashToken(domain::GenerateToken()));
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? created->id : 0;
  }

  // The gauge's samples: (developer, kind) -> value.
  std::map<std::pair<std::string, std::string>, double> Gauge() {
    std::map<std::pair<std::string, std::string>, double> out;
    for (const auto& family : registry_.Collect()) {
      if (family.name != "mdc_developer_last_write_timestamp_seconds") continue;
      for (const auto& metric : family.metric) {
        std::string developer;
        std::string kind;
        for (const auto& label : metric.label) {
          if (label.name == "developer") developer = label.value;
          if (label.name == "kind") kind = label.value;
        }
        out[{developer, kind}] = metric.gauge.value;
      }
    }
    return out;
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::DeveloperRepository> developers_;
  std::unique_ptr<storage::DeveloperWriteRepository> writes_;
  prometheus::Registry registry_;
  std::unique_ptr<FreshnessMetrics> metrics_;
};

TEST_F(WriteActivityTest, MergesTalliesAndExportsEachDevelopersLastWrite) {
  const int64_t asha = Developer("asha");
  const int64_t ravi = Developer("ravi");
  const absl::CivilDay day(2025, 1, 2);
  const absl::Time t0 = absl::FromUnixSeconds(1'735'790'400);  // 04:00Z
  // Long intervals: this test flushes and refreshes by hand.
  WriteActivity activity(*writes_, *metrics_, absl::Hours(1), absl::Hours(1));
  for (int i = 0; i < 3; ++i) {
    activity.Record({asha, "asha", domain::RecordKind::kQuote, day,
                     t0 + absl::Seconds(i), t0 - absl::Minutes(i), 100});
  }
  activity.Record({ravi, "ravi", domain::RecordKind::kShortlist, day,
                   t0 - absl::Hours(1), t0 - absl::Hours(1), 1});
  ASSERT_TRUE(activity.Flush().ok());
  ASSERT_TRUE(activity.Flush().ok());  // nothing left: changes nothing

  auto summaries = writes_->Summaries(day);
  ASSERT_TRUE(summaries.ok()) << summaries.status();
  ASSERT_EQ(summaries->size(), 2u);
  EXPECT_EQ((*summaries)[0].username, "asha");
  EXPECT_EQ((*summaries)[0].day_records, 300);
  EXPECT_EQ((*summaries)[0].last_written, t0 + absl::Seconds(2));
  EXPECT_EQ((*summaries)[0].last_observed, t0);

  ASSERT_TRUE(activity.RefreshMetric().ok());
  const double t0_seconds = absl::ToDoubleSeconds(t0 - absl::UnixEpoch());
  EXPECT_EQ(Gauge(), (std::map<std::pair<std::string, std::string>, double>{
                         {{"asha", "quotes"}, t0_seconds + 2},
                         {{"ravi", "shortlists"}, t0_seconds - 3600}}));

  // A deleted developer's series goes with it at the next refresh.
  ASSERT_TRUE(developers_->Delete(ravi).ok());
  ASSERT_TRUE(activity.RefreshMetric().ok());
  EXPECT_EQ(Gauge().size(), 1u);
  EXPECT_EQ(Gauge().count({"asha", "quotes"}), 1u);
}

TEST_F(WriteActivityTest, MergesWhatIsLeftWhenItStops) {
  const int64_t meera = Developer("meera");
  const absl::CivilDay day(2025, 1, 3);
  const absl::Time t0 = absl::FromUnixSeconds(1'735'876'800);
  {
    WriteActivity activity(*writes_, *metrics_, absl::Hours(1), absl::Hours(1));
    activity.Record(
        {meera, "meera", domain::RecordKind::kNifty, day, t0, t0, 1});
  }
  auto summaries = writes_->Summaries(day);
  ASSERT_TRUE(summaries.ok());
  ASSERT_EQ(summaries->size(), 1u);
  EXPECT_EQ((*summaries)[0].kind, domain::RecordKind::kNifty);
  EXPECT_EQ((*summaries)[0].day_records, 1);
}

}  // namespace
}  // namespace mdc
