// The history maintenance adding a month's partition while that month is
// being written (a backfill whose rows land in DEFAULT): no write may fail
// and no row may be lost. A statement picks its partition when it starts,
// so without the table lock of mdc_create_month_partition (migration 0010)
// a write that chose DEFAULT just before the attach fails its partition
// check (SQLSTATE 23514), or the attach itself fails.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "storage/partition_repository.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr int kWriters = 3;

// Upserts quotes of March 2043 (a month without a partition) until `stop`,
// one autocommit statement each; counts the rows written and the failures.
void WriteBackfill(const std::string& url, int writer, std::atomic<bool>& stop,
                   std::atomic<int>& written,
                   std::vector<std::string>& errors) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    errors.push_back(PQerrorMessage(conn));
    PQfinish(conn);
    return;
  }
  for (int i = 0; !stop.load(); ++i) {
    const std::string sql = absl::StrCat(
        "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
        "quote_data) VALUES ('RACE",
        writer, "', '2043-03-02 04:00:00+00'::timestamptz + ", i,
        " * interval '1 second', '2043-03-02', '')");
    PGresult* result = PQexec(conn, sql.c_str());
    if (PQresultStatus(result) == PGRES_COMMAND_OK) {
      written.fetch_add(1);
    } else {
      errors.push_back(PQerrorMessage(conn));
    }
    PQclear(result);
  }
  PQfinish(conn);
}

TEST(PartitionRace, AddingAMonthWhileItIsWrittenLosesNoWrite) {
  testing::TestDatabase db;
  PartitionRepository partitions(db.pool());
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::vector<std::vector<std::string>> errors(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back(
        [&, w] { WriteBackfill(db.url(), w, stop, written, errors[w]); });
  }
  // Rows in DEFAULT first, then the partition is added under the writes.
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (written.load() < 300 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(10));  // polling, not ordering
  }
  auto created = partitions.EnsurePartitions(0, absl::Seconds(10));
  const int at_attach = written.load();
  while (written.load() < at_attach + 300 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(10));  // polling, not ordering
  }
  stop = true;
  for (auto& writer : writers) writer.join();

  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_GE(*created, 1);
  for (int w = 0; w < kWriters; ++w) {
    EXPECT_TRUE(errors[w].empty())
        << errors[w].size() << " writes failed, first: " << errors[w][0];
  }
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes WHERE nse_symbol "
                     "LIKE 'RACE%'"),
            absl::StrCat(written.load()));
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes_default"), "0");
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes_p2043_03 WHERE "
                     "nse_symbol LIKE 'RACE%'"),
            absl::StrCat(written.load()));
}

}  // namespace
}  // namespace mdc::storage
