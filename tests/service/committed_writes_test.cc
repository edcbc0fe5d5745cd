// One committed write reaches each of its three consumers once
// (service/lifecycle/committed_writes.h): the rows-written metric, the
// collectors' write tallies and the market hub's wake-up. A real pool over a
// real PostgreSQL reports to CommittedWrites, as the server's does; a write
// nobody could make (an unknown token) reaches none of them.
#include "service/lifecycle/committed_writes.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/civil_time.h"
#include "domain/observations.h"
#include "domain/tokens.h"
#include "service/lifecycle/write_activity.h"
#include "service/metrics/freshness_metrics.h"
#include "service/metrics/storage_metrics.h"
#include "service/streams/wake_signal.h"
#include "storage/pool.h"
#include "storage/repositories.h"
#include "tests/support/collector_requests.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

class CommittedWritesTest : public ::testing::Test {
 protected:
  // The rows-written counter of `table` (0 before its first write).
  double RowsWritten(const std::string& table) {
    for (const auto& family : registry_.Collect()) {
      if (family.name != "mdc_rows_written_total") continue;
      for (const auto& metric : family.metric) {
        for (const auto& label : metric.label) {
          if (label.name == "table" && label.value == table) {
            return metric.counter.value;
          }
        }
      }
    }
    return 0;
  }

  // How many times the hub's signal was raised since the last call: the
  // eventfd's counter, which a read returns and resets (WakeSignal::Take
  // only says whether it was raised).
  uint64_t Raises() {
    uint64_t count = 0;
    if (read(market_commits_.fd(), &count, sizeof count) != sizeof count) {
      return 0;  // EAGAIN: not raised
    }
    return count;
  }

  // Writes `request`'s NIFTY quote as the holder of `token_hash`; whether a
  // writer held it.
  bool WriteNifty(storage::Repositories& repos,
                  const v1::SaveNiftyRequest& request,
                  const std::string& token_hash) {
    auto nifty = domain::ValidateNifty(request.data());
    EXPECT_TRUE(nifty.ok()) << nifty.status();
    absl::Notification answered;
    bool wrote = false;
    repos.nifty.Upsert(
        *nifty, token_hash,
        [&](absl::StatusOr<std::optional<storage::DeveloperRecord>> writer) {
          EXPECT_TRUE(writer.ok()) << writer.status();
          wrote = writer.ok() && writer->has_value();
          answered.Notify();
        });
    answered.WaitForNotification();
    return wrote;
  }

  testing::TestDatabase db_;
  prometheus::Registry registry_;
  StorageMetrics metrics_{registry_};
  FreshnessMetrics freshness_{registry_};
  WakeSignal market_commits_;
  CommittedWrites committed_{metrics_, market_commits_};
};

TEST_F(CommittedWritesTest, ACommitReachesTheMetricTheTalliesAndTheHubOnce) {
  storage::ConnectionPool pool(db_.url(), 2, absl::ZeroDuration(), &committed_);
  storage::Repositories repos(pool);
  // Long intervals: the test flushes the tallies by hand.
  WriteActivity tallies(repos.developer_writes, freshness_, absl::Hours(1),
                        absl::Hours(1));
  committed_.TallyInto(&tallies);
  const std::string token_hash = domain::HashToken(domain::GenerateToken());
  ASSERT_TRUE(
      repos.developers.Create("committer", "developer", token_hash).ok());
  Raises();  // whatever the set-up raised (nothing: no market table)

  ASSERT_TRUE(WriteNifty(repos, testing::NiftyRequest("2025-03-07T10:00:00"),
                         token_hash));

  EXPECT_EQ(RowsWritten("nifty_quotes"), 1);
  EXPECT_EQ(Raises(), 1u);
  ASSERT_TRUE(tallies.Flush().ok());
  auto summaries = repos.developer_writes.Summaries(absl::CivilDay(2025, 3, 7));
  ASSERT_TRUE(summaries.ok()) << summaries.status();
  ASSERT_EQ(summaries->size(), 1u);
  EXPECT_EQ((*summaries)[0].username, "committer");
  EXPECT_EQ((*summaries)[0].kind, domain::RecordKind::kNifty);
  EXPECT_EQ((*summaries)[0].day_records, 1);

  // Nobody holds this token: nothing committed, so nothing reported.
  EXPECT_FALSE(WriteNifty(repos, testing::NiftyRequest("2025-03-07T10:01:00"),
                          domain::HashToken(domain::GenerateToken())));
  EXPECT_EQ(RowsWritten("nifty_quotes"), 1);
  EXPECT_EQ(Raises(), 0u);
  ASSERT_TRUE(tallies.Flush().ok());
  summaries = repos.developer_writes.Summaries(absl::CivilDay(2025, 3, 7));
  ASSERT_TRUE(summaries.ok()) << summaries.status();
  ASSERT_EQ(summaries->size(), 1u);
  EXPECT_EQ((*summaries)[0].day_records, 1);
  committed_.TallyInto(nullptr);
}

}  // namespace
}  // namespace mdc
