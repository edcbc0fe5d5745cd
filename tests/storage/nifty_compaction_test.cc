// Compaction of closed days' NIFTY quotes (storage/nifty_compaction.h)
// against a real PostgreSQL: the rows move into batches and read back the
// same (every column, bit for bit), the partition is swapped, a late write
// wins and is folded in by the next run, a month another server holds is
// left alone, deleting and purging days remove the batches too, and the
// reads' batch choice (first_count, latest_only) passes on what a page or
// an as-of read needs.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <algorithm>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "storage/compacted_nifty.h"
#include "storage/compaction_repository.h"
#include "storage/market_data_repository.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// Every stored column of the NIFTY quotes, in instant order.
constexpr char kEveryNiftyColumn[] =
    "SELECT string_agg(concat_ws('|', observed_at, trading_day, last_price, "
    "volume, day_change_perc, encode(quote_data, 'hex'), written_by, "
    "written_at, seq, txid), E'\\n' ORDER BY observed_at) FROM nifty_quotes";

// n NIFTY quotes on `day`, a second apart from 09:15 IST, with NULL prices
// and volumes, day changes of every sign and a writer now and then.
void WriteNiftyDay(testing::TestDatabase& db, const std::string& day, int n) {
  db.Query(absl::StrCat(
      "INSERT INTO nifty_quotes (observed_at, trading_day, last_price, "
      "volume, day_change_perc, quote_data, written_by) SELECT ('",
      day, " 09:15:00+05:30'::timestamptz + g * interval '1 second'), '", day,
      "', CASE WHEN g % 7 = 3 THEN NULL ELSE 22000 + g * 0.05 END, "
      "CASE WHEN g % 5 = 1 THEN NULL ELSE g * 10 END, "
      "(g % 11 - 5) * 0.0123, convert_to('nifty ' || g, 'UTF8'), "
      "CASE WHEN g % 3 = 0 THEN NULL ELSE g % 4 END "
      "FROM generate_series(0, ",
      n - 1, ") g"));
}

Statement EveryColumnStatement() {
  static const std::string sql =
      std::string(kEveryNiftyColumn) + " WHERE trading_day = $1";
  return Statement{"test_every_nifty_column", sql.c_str()};
}

// Every stored column of `day`'s NIFTY quotes as the reads see them.
std::string EveryColumnSeenByReads(testing::TestDatabase& db,
                                   absl::CivilDay day) {
  static const Statement statement = EveryColumnStatement();
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  if (!conn.ok()) return "";
  auto result = ExecSeeingCompactedNifty(
      **conn, statement, Params().Date(day),
      CompactedNiftyFilter{day, day, std::nullopt, std::nullopt});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() && !result->IsNull(0, 0) ? result->String(0, 0) : "";
}

absl::StatusOr<CompactionCounts> CompactThrough(testing::TestDatabase& db,
                                                absl::CivilDay through) {
  CompactionRepository compaction(db.pool());
  return compaction.CompactThrough(through, absl::Seconds(10));
}

TEST(NiftyCompaction, MovesADayIntoBatchesAndBack) {
  testing::TestDatabase db;
  WriteNiftyDay(db, "2026-02-02", 1500);
  WriteNiftyDay(db, "2026-02-03", 10);
  db.Query("SELECT mdc_ensure_partitions(0, 'nifty_quotes')");
  const std::string file_before =
      db.Query("SELECT pg_relation_filenode('nifty_quotes_p2026_02')");
  const absl::CivilDay day(2026, 2, 2);
  const std::string before = EveryColumnSeenByReads(db, day);
  ASSERT_NE(before, "");
  auto counts = CompactThrough(db, day);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nifty_days, 1);
  EXPECT_EQ(counts->nifty_quotes, 1500);
  EXPECT_EQ(counts->nifty_batches, 2);  // 1,000 + 500
  EXPECT_EQ(counts->days, 0);           // no stock quotes
  EXPECT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "10");
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM nifty_quote_batches"), "1500");
  // The month's partition was swapped for a fresh one: no dead rows.
  EXPECT_NE(db.Query("SELECT pg_relation_filenode('nifty_quotes_p2026_02')"),
            file_before);
  EXPECT_EQ(EveryColumnSeenByReads(db, day), before);
  // The storage report lists the compacted form.
  EXPECT_EQ(db.Query("SELECT rows FROM mdc_storage_report() WHERE kind = "
                     "'nifty' AND month = '2026-02' AND form = 'compacted'"),
            "1500");
  // Idempotent.
  counts = CompactThrough(db, day);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nifty_days, 0);
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM nifty_quote_batches"), "1500");
}

TEST(NiftyCompaction, ALateWriteWinsAndTheNextRunFoldsItIn) {
  testing::TestDatabase db;
  WriteNiftyDay(db, "2026-02-02", 30);
  const absl::CivilDay day(2026, 2, 2);
  ASSERT_TRUE(CompactThrough(db, day).ok());
  // A correction of a compacted instant and a new instant, in the row store.
  db.Query(
      "INSERT INTO nifty_quotes (observed_at, trading_day, last_price, "
      "volume, day_change_perc, quote_data) VALUES "
      "('2026-02-02 09:15:05+05:30', '2026-02-02', 1.5, 2.5, -0.75, "
      "'\\x0102'), ('2026-02-02 15:00:00+05:30', '2026-02-02', 3, 4, 0.5, "
      "'\\x03')");
  const std::string merged = EveryColumnSeenByReads(db, day);
  EXPECT_EQ(std::count(merged.begin(), merged.end(), '\n'), 30);  // 31 rows
  EXPECT_NE(merged.find("|1.5|2.5|-0.75|0102|"), std::string::npos);
  MarketDataRepository data(db.pool());
  auto dates = data.ListDates();
  ASSERT_TRUE(dates.ok()) << dates.status();
  ASSERT_EQ(dates->size(), 1u);
  EXPECT_EQ((*dates)[0].nifty_quotes, 31);
  auto counts = CompactThrough(db, day);
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nifty_days, 1);
  EXPECT_EQ(counts->nifty_quotes, 2);
  EXPECT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "0");
  EXPECT_EQ(db.Query("SELECT sum(row_count) FROM nifty_quote_batches"), "31");
  EXPECT_EQ(EveryColumnSeenByReads(db, day), merged);
}

TEST(NiftyCompaction, LeavesAMonthAnotherServerIsCompacting) {
  testing::TestDatabase db;
  WriteNiftyDay(db, "2026-03-02", 20);
  PGconn* other = PQconnectdb(db.url().c_str());
  ASSERT_EQ(PQstatus(other), CONNECTION_OK);
  PQclear(PQexec(other, "BEGIN"));
  PQclear(
      PQexec(other, "SELECT pg_advisory_xact_lock(4242033, 2026 * 12 + 3)"));
  auto counts = CompactThrough(db, absl::CivilDay(2026, 3, 2));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->busy_months, 1);
  EXPECT_EQ(counts->nifty_days, 0);
  EXPECT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "20");
  PQclear(PQexec(other, "COMMIT"));
  PQfinish(other);
  counts = CompactThrough(db, absl::CivilDay(2026, 3, 2));
  ASSERT_TRUE(counts.ok()) << counts.status();
  EXPECT_EQ(counts->nifty_days, 1);
  EXPECT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "0");
}

TEST(NiftyCompaction, DeletingAndPurgingDaysRemoveTheirBatches) {
  testing::TestDatabase db;
  WriteNiftyDay(db, "2026-02-02", 12);
  WriteNiftyDay(db, "2026-02-03", 7);
  WriteNiftyDay(db, "2026-02-04", 5);
  WriteNiftyDay(db, "1850-05-06", 3);  // DEFAULT partition: deleted rows
  ASSERT_TRUE(CompactThrough(db, absl::CivilDay(2026, 2, 4)).ok());
  EXPECT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "0");
  MarketDataRepository data(db.pool());
  auto deleted = data.DeleteDays({absl::CivilDay(2026, 2, 3)});
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted->nifty_quotes, 7);
  auto dry = data.PurgeBefore(absl::CivilDay(2026, 2, 4), /*dry_run=*/true);
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_EQ(dry->nifty_quotes, 15);
  auto purged = data.PurgeBefore(absl::CivilDay(2026, 2, 4), false);
  ASSERT_TRUE(purged.ok()) << purged.status();
  EXPECT_EQ(purged->nifty_quotes, 15);
  EXPECT_EQ(db.Query("SELECT string_agg(trading_day::text || ':' || "
                     "row_count, ',') FROM nifty_quote_batches"),
            "2026-02-04:5");
}

// The quotes LoadCompactedNifty passes on, as "HH:MM:SS" IST.
std::string LoadedInstants(testing::TestDatabase& db,
                           const CompactedNiftyFilter& filter) {
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  if (!conn.ok()) return "";
  auto loaded = LoadCompactedNifty(**conn, filter);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return "";
  std::string out;
  const absl::TimeZone ist = absl::FixedTimeZone(5 * 3600 + 1800);
  for (const CompactedNifty& nifty : *loaded) {
    if (!out.empty()) out += ",";
    out += absl::FormatTime(
        "%H:%M:%S", absl::FromUnixMicros(nifty.nifty.quote.observed_at_us),
        ist);
  }
  return out;
}

TEST(NiftyCompaction, ReadsPassOnTheQuotesAPageOrAnAsOfNeeds) {
  testing::TestDatabase db;
  WriteNiftyDay(db, "2026-02-02", 2500);  // batches from 09:15:00, 09:31:40,
                                          // 09:48:20
  WriteNiftyDay(db, "2026-02-03", 5);
  const absl::CivilDay first(2026, 2, 2), second(2026, 2, 3);
  ASSERT_TRUE(CompactThrough(db, second).ok());
  const absl::TimeZone ist = absl::FixedTimeZone(5 * 3600 + 1800);
  auto at = [&](int day, int h, int m, int s) {
    return absl::FromCivil(absl::CivilSecond(2026, 2, day, h, m, s), ist);
  };
  // A page from just before a batch's end: its last quotes and the next
  // batch's first; one batch further is never needed.
  CompactedNiftyFilter page{first, second, at(2, 9, 31, 38), at(3, 23, 0, 0)};
  page.first_count = 4;
  EXPECT_EQ(LoadedInstants(db, page), "09:31:38,09:31:39,09:31:40,09:31:41");
  // Priced only: 09:31:39 is g = 999 (999 % 7 = 5: priced), g = 1004 at
  // 09:31:44 is not (1004 % 7 = 3).
  page.priced_only = true;
  page.first_count = 7;
  EXPECT_EQ(LoadedInstants(db, page),
            "09:31:38,09:31:39,09:31:40,09:31:41,09:31:42,09:31:43,09:31:45");
  // Across days: the first quotes of the next day after the last of this.
  CompactedNiftyFilter across{first, second, at(2, 9, 56, 38), at(3, 23, 0, 0)};
  across.first_count = 3;
  EXPECT_EQ(LoadedInstants(db, across), "09:56:38,09:56:39,09:15:00");
  // As-of: the latest at or before the instant, across a day's end.
  CompactedNiftyFilter as_of{first, second, at(2, 9, 0, 0), at(3, 9, 0, 0)};
  as_of.latest_only = true;
  EXPECT_EQ(LoadedInstants(db, as_of), "09:56:39");
  as_of.not_after = at(2, 9, 31, 40);
  EXPECT_EQ(LoadedInstants(db, as_of), "09:31:40");
  // Nothing in the bounds: nothing.
  as_of.not_before = at(2, 8, 0, 0);
  as_of.not_after = at(2, 9, 0, 0);
  EXPECT_EQ(LoadedInstants(db, as_of), "");
}

}  // namespace
}  // namespace mdc::storage
