// Compaction of closed days (storage/compaction_repository.h) against a
// real PostgreSQL: the rows move into batches and read back the same, a
// month another server is compacting is left alone, and a day outside the
// partitioned years is compacted from the DEFAULT partition.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "storage/compacted_quotes.h"
#include "storage/compaction_repository.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// Every stored column of the day's quotes, in key order: what compaction
// must keep.
constexpr char kEveryColumn[] =
    "SELECT string_agg(concat_ws('|', nse_symbol, observed_at, trading_day, "
    "last_price, volume, encode(quote_data, 'hex'), written_by, written_at, "
    "seq, txid), E'\\n' ORDER BY nse_symbol, observed_at) FROM stock_quotes";

// n quotes of each of two symbols on `day`, a second apart, with NULLs.
void WriteDay(testing::TestDatabase& db, const std::string& day, int n) {
  db.Query(absl::StrCat(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "last_price, volume, quote_data) SELECT s, ('",
      day, " 09:15:00+05:30'::timestamptz + g * interval '1 second'), '", day,
      "', CASE WHEN g % 7 = 3 THEN NULL ELSE 100 + g * 0.05 END, "
      "CASE WHEN g % 5 = 1 THEN NULL ELSE g * 10 END, "
      "convert_to('payload ' || g, 'UTF8') "
      "FROM generate_series(0, ",
      n - 1, ") g, (VALUES ('AAA'), ('BBB')) v(s)"));
}

// Every stored column of `day`'s quotes as the reads see them: the same
// statement over both stores (storage/compacted_quotes.h).
std::string EveryColumnSeenByReads(testing::TestDatabase& db,
                                   absl::CivilDay day) {
  static const std::string sql =
      std::string(kEveryColumn) + " WHERE trading_day = $1";
  static const Statement statement{"test_every_column", sql.c_str()};
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  if (!conn.ok()) return "";
  auto result = ExecSeeingCompactedQuotes(
      **conn, statement, Params().Date(day),
      CompactedFilter{day, day, std::nullopt, std::nullopt, std::nullopt});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() && !result->IsNull(0, 0) ? result->String(0, 0) : "";
}

TEST(Compaction, MovesADayIntoBatchesAndBack) {
  testing::TestDatabase db;
  WriteDay(db, "2026-02-02", 1500);
  WriteDay(db, "2026-02-03", 10);
  db.Query("SELECT mdc_ensure_partitions(0, 'stock_quotes')");
  const absl::CivilDay day(2026, 2, 2);
  const std::string before = EveryColumnSeenByReads(db, day);
  ASSERT_NE(before, "");
  CompactionRepository compaction(db.pool());
  auto counts =
      compaction.CompactThrough(absl::CivilDay(2026, 2, 2), absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->days, 1);
  EXPECT_EQ(counts->quotes, 3000);
  // Per symbol, cut at two-minute slots once a batch holds 120 quotes
  // (domain::BatchBounds): 180 (09:15's slot has only 60), then eleven of
  // 120.
  EXPECT_EQ(counts->batches, 24);
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes"), "20");
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM stock_quote_batches"), "3000");
  // Every column of every quote, bit for bit, as the reads see it.
  EXPECT_EQ(EveryColumnSeenByReads(db, day), before);
  // Idempotent.
  counts =
      compaction.CompactThrough(absl::CivilDay(2026, 2, 2), absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->days, 0);
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM stock_quote_batches"), "3000");
}

TEST(Compaction, LeavesAMonthAnotherServerIsCompacting) {
  testing::TestDatabase db;
  WriteDay(db, "2026-03-02", 20);
  // Another server's compaction of March 2026 holds the month's turn.
  PGconn* other = PQconnectdb(db.url().c_str());
  ASSERT_EQ(PQstatus(other), CONNECTION_OK);
  PQclear(PQexec(other, "BEGIN"));
  PQclear(
      PQexec(other, "SELECT pg_advisory_xact_lock(4242032, 2026 * 12 + 3)"));
  CompactionRepository compaction(db.pool());
  auto counts =
      compaction.CompactThrough(absl::CivilDay(2026, 3, 2), absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->busy_months, 1);
  EXPECT_EQ(counts->days, 0);
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes"), "40");
  PQclear(PQexec(other, "COMMIT"));
  PQfinish(other);
  counts =
      compaction.CompactThrough(absl::CivilDay(2026, 3, 2), absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->days, 1);
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes"), "0");
}

TEST(Compaction, DeletesFromDefaultOnlyOutsideThePartitionedYears) {
  testing::TestDatabase db;
  WriteDay(db, "1850-05-06", 5);  // no partition ever: stays in DEFAULT
  WriteDay(db, "2026-04-06", 5);  // a backfill: gets its partition
  CompactionRepository compaction(db.pool());
  auto counts =
      compaction.CompactThrough(absl::CivilDay(2026, 4, 30), absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->days, 2);
  EXPECT_EQ(db.Query("SELECT count(*) FROM stock_quotes"), "0");
  EXPECT_EQ(db.Query("SELECT to_regclass('stock_quotes_p2026_04') IS NOT NULL"),
            "t");
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM stock_quote_batches"), "20");
}

}  // namespace
}  // namespace mdc::storage
