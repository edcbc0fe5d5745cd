// The fast reads of compacted NIFTY days (storage/compacted_nifty_fast.h)
// against a real PostgreSQL: every page (timeline, candle price points,
// replay and export) and every as-of they give after compaction is the one
// the row store gave before it, byte for byte, with pages crossing batch
// and day boundaries; and with later writes in the row store (a replaced
// quote, a new instant, a quote without a price in place of a priced one)
// each is the one the statement over both stores (compacted_nifty.h)
// seeing every compacted quote gives, the late write winning (a priced
// page with a priceless late write included: it needs a compacted quote
// more than limit + 1).
#include "storage/compacted_nifty_fast.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "storage/compacted_nifty.h"
#include "storage/compaction_repository.h"
#include "storage/trading_day_bounds.h"
#include "tests/support/result_rows.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

const absl::CivilDay kDay(2026, 5, 4);
const absl::CivilDay kNextDay(2026, 5, 5);
const absl::TimeZone kIst = absl::FixedTimeZone(19800);

// `second` seconds after 09:15 IST on kDay (kNextDay's are a day later).
absl::Time At(int second) {
  return absl::FromCivil(absl::CivilSecond(2026, 5, 4, 9, 15, 0), kIst) +
         absl::Seconds(second);
}

// 1,500 NIFTY quotes on kDay (two batches: 1,000 and 500) and 300 on
// kNextDay, a second apart from 09:15, some without a price or a volume.
void WriteDays(testing::TestDatabase& db) {
  for (const auto& [day, count] : std::vector<std::pair<std::string, int>>{
           {"2026-05-04", 1500}, {"2026-05-05", 300}}) {
    db.Query(absl::StrCat(
        "INSERT INTO nifty_quotes (observed_at, trading_day, last_price, "
        "volume, day_change_perc, quote_data) SELECT ('",
        day, " 09:15:00+05:30'::timestamptz + g * interval '1 second'), '", day,
        "', CASE WHEN g % 7 = 3 THEN NULL ELSE 22000 + g * 0.05 END, "
        "CASE WHEN g % 5 = 1 THEN NULL ELSE g * 10 END, "
        "(g % 11 - 5) * 0.0123, convert_to('nifty ' || g, 'UTF8') "
        "FROM generate_series(0, ",
        count - 1, ") g"));
  }
  db.Query("SELECT mdc_ensure_partitions(0, 'nifty_quotes')");
}

void Compact(testing::TestDatabase& db) {
  CompactionRepository compaction(db.pool());
  auto counts = compaction.CompactThrough(kNextDay, absl::Seconds(10));
  ASSERT_TRUE(counts.ok()) << counts.status();
  ASSERT_EQ(db.Query("SELECT count(*) FROM nifty_quotes"), "0");
  ASSERT_EQ(db.Query("SELECT count(*) FROM nifty_quote_batches"), "3");
}

// Later writes to kDay: a replaced quote (at a batch's first instant), a
// new instant, and a quote without a price in place of a priced one.
void WriteLate(testing::TestDatabase& db) {
  db.Query(
      "INSERT INTO nifty_quotes (observed_at, trading_day, last_price, "
      "volume, day_change_perc, quote_data) VALUES "
      "('2026-05-04 09:31:40+05:30', '2026-05-04', 7, 7, 0.7, 'late'), "
      "('2026-05-04 09:20:00.5+05:30', '2026-05-04', 8, NULL, -0.8, 'new'), "
      "('2026-05-04 09:25:01+05:30', '2026-05-04', NULL, 1, 0, 'none')");
}

// The page statements' shapes (storage/nifty_repository.cc,
// storage/market_event_repository.cc).
constexpr Statement kListRange{
    "test_nifty_fast_list_range",
    "SELECT observed_at, day_change_perc, quote_data FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at < $2 AND observed_at > $3 "
    "AND trading_day BETWEEN $5 AND $6 ORDER BY observed_at LIMIT $4"};
constexpr Statement kPricePoints{
    "test_nifty_fast_price_points",
    "SELECT observed_at, last_price, volume FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at < $2 AND observed_at > $3 "
    "AND last_price IS NOT NULL AND trading_day BETWEEN $5 AND $6 "
    "ORDER BY observed_at LIMIT $4"};
constexpr Statement kReplay{
    "test_nifty_fast_replay",
    "SELECT observed_at, '', '', quote_data, day_change_perc "
    "FROM nifty_quotes WHERE trading_day = $1 AND observed_at > $2 "
    "AND observed_at < $3 ORDER BY observed_at LIMIT $4"};
constexpr Statement kLatest{
    "test_nifty_fast_latest",
    "SELECT observed_at, day_change_perc, quote_data FROM nifty_quotes "
    "WHERE observed_at >= $1 AND observed_at <= $2 "
    "AND trading_day BETWEEN $3 AND $4 ORDER BY observed_at DESC LIMIT 1"};

// Every read's pages and answers by the fast path, and the same by the
// general path seeing every compacted quote within the read's bounds.
struct Reads {
  std::string fast;
  std::string general;
};

void Append(Reads& reads, const std::string& what,
            const absl::StatusOr<Result>& fast,
            const absl::StatusOr<Result>& general) {
  ASSERT_TRUE(fast.ok()) << what << ": " << fast.status();
  ASSERT_TRUE(general.ok()) << what << ": " << general.status();
  absl::StrAppend(&reads.fast, what, "\n", testing::ResultRows(*fast));
  absl::StrAppend(&reads.general, what, "\n", testing::ResultRows(*general));
}

// Pages of a range [start, end) (timeline or price points) `limit` rows
// each, as nifty_repository.cc's ExecPage asks them.
void ReadRangePages(Connection& conn, Reads& reads, const Statement& page,
                    NiftyPageColumns columns, absl::Time start, absl::Time end,
                    int limit) {
  absl::Time after = start - absl::Microseconds(1);
  for (int number = 0; number < 1000; ++number) {
    Params params;
    params.Time(start)
        .Time(end)
        .Time(after)
        .Int32(limit)
        .Date(TradingDayFrom(after))
        .Date(TradingDayTo(end));
    CompactedNiftyFilter filter{TradingDayFrom(after), TradingDayTo(end), after,
                                end};
    filter.priced_only = columns == NiftyPageColumns::kPricePoints;
    // The reference: the statement seeing every compacted quote within the
    // bounds; the fast path gets the filter the repository gives it.
    auto general = ExecSeeingCompactedNifty(conn, page, params, filter);
    filter.first_count = limit + 1;
    auto fast = NiftyPageSeeingCompacted(conn, page, params, filter, start,
                                         after, end, limit, columns);
    Append(reads, absl::StrCat(page.name, " ", limit, " page ", number), fast,
           general);
    if (!general.ok() || general->rows() < limit) return;
    after = general->Time(general->rows() - 1, 0);
  }
  ADD_FAILURE() << "too many pages";
}

// A day's replay (and export) pages, `limit` rows each.
void ReadReplayPages(Connection& conn, Reads& reads, absl::CivilDay day,
                     int limit) {
  absl::Time after = absl::FromCivil(day, kIst) - absl::Microseconds(1);
  const absl::Time end = absl::FromCivil(day + 1, kIst);
  for (int number = 0; number < 1000; ++number) {
    Params params;
    params.Date(day).Time(after).Time(end).Int32(limit);
    CompactedNiftyFilter filter{day, day, after, end};
    auto general = ExecSeeingCompactedNifty(conn, kReplay, params, filter);
    filter.first_count = limit + 1;
    auto fast =
        NiftyPageSeeingCompacted(conn, kReplay, params, filter, after, after,
                                 end, limit, NiftyPageColumns::kReplay);
    Append(reads, absl::StrCat("replay ", limit, " page ", number), fast,
           general);
    if (!general.ok() || general->rows() < limit) return;
    after = general->Time(general->rows() - 1, 0);
  }
  ADD_FAILURE() << "too many pages";
}

void ReadLatest(Connection& conn, Reads& reads, absl::Time not_before,
                absl::Time at) {
  Params params;
  params.Time(not_before)
      .Time(at)
      .Date(TradingDayFrom(not_before))
      .Date(TradingDayTo(at));
  CompactedNiftyFilter filter{TradingDayFrom(not_before), TradingDayTo(at),
                              not_before, at};
  filter.latest_only = true;
  auto fast = NiftyLatestSeeingCompacted(conn, kLatest, params, filter);
  auto general = ExecSeeingCompactedNifty(conn, kLatest, params, filter);
  Append(reads,
         absl::StrCat("latest ", absl::FormatTime(not_before), " ",
                      absl::FormatTime(at)),
         fast, general);
}

Reads EveryRead(testing::TestDatabase& db) {
  Reads reads;
  auto conn = db.pool().Acquire();
  EXPECT_TRUE(conn.ok());
  if (!conn.ok()) return reads;
  const absl::Time day_after = At(86400);
  for (int limit : {97, 1000, 5000}) {
    // Across the batch boundary (second 1000) and into the next day.
    ReadRangePages(**conn, reads, kListRange, NiftyPageColumns::kQuotes, At(10),
                   day_after + absl::Seconds(250), limit);
    ReadRangePages(**conn, reads, kPricePoints, NiftyPageColumns::kPricePoints,
                   At(10), day_after + absl::Seconds(250), limit);
    ReadReplayPages(**conn, reads, kDay, limit);
    ReadReplayPages(**conn, reads, kNextDay, limit);
  }
  // A page within one batch, starting mid-second.
  ReadRangePages(**conn, reads, kListRange, NiftyPageColumns::kQuotes,
                 At(300) + absl::Milliseconds(500), At(320), 8);
  for (const auto& [from, to] :
       std::vector<std::pair<int, int>>{{0, 1499},
                                        {300, 301},
                                        {0, 900},
                                        {901, 901},
                                        {1500, 1600},
                                        {-100, -1},
                                        {1000, 1000},
                                        {999, 1001},
                                        {0, 86400 + 100},
                                        {1600, 86400 + 5},
                                        {1600, 86400 - 1},
                                        {86400 + 299, 86400 + 400},
                                        {1000, 86400 + 1000}}) {
    ReadLatest(**conn, reads, At(from), At(to));
  }
  ReadLatest(**conn, reads, At(0), At(300) + absl::Milliseconds(500));
  ReadLatest(**conn, reads, At(0), At(600) + absl::Microseconds(1));
  ReadLatest(**conn, reads, At(0), At(310) + absl::Milliseconds(500));
  return reads;
}

TEST(CompactedNiftyFast, AnswersAsTheRowStoreDidBeforeCompaction) {
  testing::TestDatabase db;
  WriteDays(db);
  // Row-wise: no batch, each statement runs as it is.
  const Reads row_wise = EveryRead(db);
  EXPECT_EQ(row_wise.fast, row_wise.general);
  Compact(db);
  const Reads compacted = EveryRead(db);
  EXPECT_EQ(compacted.fast, row_wise.fast);
  EXPECT_EQ(compacted.general, row_wise.general);
  // The decoded batches are kept: reading again gives the same.
  EXPECT_EQ(EveryRead(db).fast, row_wise.fast);
}

TEST(CompactedNiftyFast, ALateWriteInTheRowStoreWins) {
  testing::TestDatabase db;
  WriteDays(db);
  Compact(db);
  const Reads compacted = EveryRead(db);
  WriteLate(db);
  const Reads late = EveryRead(db);
  EXPECT_EQ(late.fast, late.general);
  EXPECT_NE(late.fast, compacted.fast);
  // The replaced quote's payload ('late') is read, and the as-of at its
  // instant answers it.
  EXPECT_NE(late.fast.find(absl::BytesToHexString("late")), std::string::npos);
  auto conn = db.pool().Acquire();
  ASSERT_TRUE(conn.ok());
  Reads at_late;
  ReadLatest(**conn, at_late, At(0), At(1000));
  EXPECT_NE(at_late.fast.find(absl::BytesToHexString("late")),
            std::string::npos);
  // Once folded in by the next compaction, the reads answer the same.
  Compact(db);
  const Reads folded = EveryRead(db);
  EXPECT_EQ(folded.fast, late.fast);
  EXPECT_EQ(folded.general, late.general);
}

}  // namespace
}  // namespace mdc::storage
