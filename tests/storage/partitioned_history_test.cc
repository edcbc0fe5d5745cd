// The partitioned market history (migration 0010) against a real
// PostgreSQL: partitions created ahead, writes for a month without a
// partition (DEFAULT partition, then moved), retention and purges dropping
// whole old months only, deletes of days and of whole months, and the
// reads (as-of, timeline, replay, streams) across a month boundary.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "domain/observations.h"
#include "domain/stream_cursors.h"
#include "domain/time.h"
#include "storage/market_event_repository.h"
#include "storage/repositories.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class PartitionedHistoryTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    writer_id_ = NewDeveloper("partitions", &writer_hash_);
    ASSERT_FALSE(HasFailure());
  }

  // Stores one quote of each symbol at `at` (Asia/Kolkata wall clock).
  void WriteQuotes(const char* at, std::vector<std::string> symbols,
                   double price = 100) {
    domain::QuoteBatch batch;
    batch.observed_at = At(at);
    for (const std::string& symbol : symbols) {
      v1::QuoteData quote;
      quote.set_status(v1::SUCCESS);
      quote.mutable_payload()->set_last_price(price);
      batch.quotes.push_back({symbol, quote});
    }
    ASSERT_TRUE(WrittenBy(Write(repos_->quotes, &QuoteRepository::UpsertBatch,
                                batch, writer_hash_),
                          writer_id_));
  }

  void WriteNifty(const char* at) {
    domain::NiftyObservation nifty;
    nifty.observed_at = At(at);
    nifty.day_change_perc = 0.5;
    nifty.quote.set_status(v1::SUCCESS);
    nifty.quote.mutable_payload()->set_last_price(22000);
    ASSERT_TRUE(WrittenBy(
        Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
        writer_id_));
  }

  void WriteShortlist(const char* at) {
    domain::ShortlistSnapshot snapshot;
    snapshot.type = v1::TOP_GAINERS;
    snapshot.scope = v1::TOP_5;
    snapshot.observed_at = At(at);
    snapshot.entries.add_entries()->set_nse_symbol("INFY");
    ASSERT_TRUE(
        WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                        snapshot, writer_hash_),
                  writer_id_));
  }

  void EnsurePartitions(int months_ahead = 0) {
    auto created =
        repos_->partitions.EnsurePartitions(months_ahead, absl::Seconds(5));
    ASSERT_TRUE(created.ok()) << created.status();
  }

  static std::string Exists(const std::string& table) {
    return db_->Query("SELECT to_regclass('" + table + "') IS NOT NULL");
  }

  // The partition holding the quote of `symbol`, or "".
  static std::string PartitionOfQuote(const std::string& symbol) {
    return db_->Query(
        "SELECT string_agg(DISTINCT tableoid::regclass::text, ',') FROM "
        "stock_quotes WHERE nse_symbol = '" +
        symbol + "'");
  }

  int64_t writer_id_ = 0;
  std::string writer_hash_;
};

TEST_F(PartitionedHistoryTest, CreatesTheMonthsAheadOnceForEveryTable) {
  // The months from the current one (Asia/Kolkata) to `n` ahead, for each
  // of the three tables, that exist.
  auto existing_ahead = [](int n) {
    return db_->Query(absl::StrCat(
        "SELECT count(*) FROM unnest(mdc_partitioned_tables()) AS t, "
        "generate_series(0, ",
        n,
        ") AS n WHERE to_regclass(t || '_p' || to_char(date_trunc('month', "
        "now() AT TIME ZONE 'Asia/Kolkata') + make_interval(months => n), "
        "'YYYY_MM')) IS NOT NULL"));
  };
  // The migration made the current month and the next three.
  EXPECT_EQ(existing_ahead(3), "12");
  EXPECT_EQ(existing_ahead(6), "12");
  auto created = repos_->partitions.EnsurePartitions(6, absl::Seconds(5));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(*created, 9);
  EXPECT_EQ(existing_ahead(6), "21");
  // Idempotent.
  created = repos_->partitions.EnsurePartitions(6, absl::Seconds(5));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(*created, 0);
  EXPECT_FALSE(repos_->partitions.EnsurePartitions(-1, absl::Seconds(5)).ok());
}

TEST_F(PartitionedHistoryTest, AMonthWithoutPartitionIsWrittenAndMovedLater) {
  ASSERT_EQ(Exists("stock_quotes_p2041_03"), "f");
  WriteQuotes("2041-03-05T10:00:00", {"LATE1", "LATE2"}, 10);
  WriteNifty("2041-03-05T10:00:00");
  WriteShortlist("2041-03-05T10:00:00");
  EXPECT_EQ(PartitionOfQuote("LATE1"), "stock_quotes_default");
  EXPECT_EQ(db_->Query("SELECT tableoid::regclass FROM nifty_quotes WHERE "
                       "trading_day = '2041-03-05'"),
            "nifty_quotes_default");
  EXPECT_EQ(db_->Query("SELECT tableoid::regclass FROM shortlist_snapshots "
                       "WHERE trading_day = '2041-03-05'"),
            "shortlist_snapshots_default");

  // Readable, and an upsert replaces it there (last write wins, one row).
  WriteQuotes("2041-03-05T10:00:00", {"LATE1"}, 11);
  auto latest = repos_->quotes.FindLatest(
      "LATE1", domain::DayStart(absl::CivilDay(2041, 3, 5)),
      At("2041-03-05T15:00:00"));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->quote_data().payload().last_price(), 11);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes WHERE nse_symbol = "
                       "'LATE1'"),
            "1");
  const std::string stored = db_->Query(
      "SELECT string_agg(concat_ws(' ', nse_symbol, seq, txid, "
      "last_price), ',' ORDER BY nse_symbol) FROM stock_quotes "
      "WHERE trading_day = '2041-03-05'");

  // The maintenance gives the month a partition and moves the rows into
  // it, unchanged.
  EnsurePartitions();
  EXPECT_EQ(Exists("stock_quotes_p2041_03"), "t");
  EXPECT_EQ(Exists("nifty_quotes_p2041_03"), "t");
  EXPECT_EQ(Exists("shortlist_snapshots_p2041_03"), "t");
  EXPECT_EQ(PartitionOfQuote("LATE1"), "stock_quotes_p2041_03");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes_default WHERE "
                       "trading_day = '2041-03-05'"),
            "0");
  EXPECT_EQ(db_->Query("SELECT tableoid::regclass FROM nifty_quotes WHERE "
                       "trading_day = '2041-03-05'"),
            "nifty_quotes_p2041_03");
  EXPECT_EQ(db_->Query("SELECT tableoid::regclass FROM shortlist_snapshots "
                       "WHERE trading_day = '2041-03-05'"),
            "shortlist_snapshots_p2041_03");
  EXPECT_EQ(db_->Query("SELECT string_agg(concat_ws(' ', nse_symbol, seq, "
                       "txid, last_price), ',' ORDER BY nse_symbol) FROM "
                       "stock_quotes WHERE trading_day = '2041-03-05'"),
            stored);
  // And writes go on there.
  WriteQuotes("2041-03-05T10:00:00", {"LATE1"}, 12);
  EXPECT_EQ(db_->Query("SELECT last_price FROM stock_quotes_p2041_03 WHERE "
                       "nse_symbol = 'LATE1'"),
            "12");
}

TEST_F(PartitionedHistoryTest, RetentionDropsOnlyTheMonthsBeforeTheBound) {
  WriteQuotes("2019-01-31T15:00:00", {"RET"});
  WriteQuotes("2019-02-01T09:30:00", {"RET"});
  WriteQuotes("2019-03-15T09:30:00", {"RET"});
  WriteNifty("2019-01-10T10:00:00");
  WriteNifty("2019-02-10T10:00:00");
  WriteShortlist("2019-01-10T10:00:00");
  EnsurePartitions();
  ASSERT_EQ(Exists("stock_quotes_p2019_01"), "t");
  // A trading day outside the supported years stays in DEFAULT; it is old
  // too, so the retention removes it as well.
  db_->Query(
      "INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, "
      "quote_data) VALUES ('RET', '1850-06-01 04:00:00+00', '1850-06-01', "
      "'\\x')");
  const std::string others = db_->Query(
      "SELECT count(*) FROM stock_quotes WHERE trading_day >= '2019-02-01'");

  auto dropped = repos_->partitions.DropBefore(absl::CivilDay(2019, 2, 1),
                                               absl::Seconds(5));
  ASSERT_TRUE(dropped.ok()) << dropped.status();
  EXPECT_EQ(dropped->quotes, 2);
  EXPECT_EQ(dropped->nifty_quotes, 1);
  EXPECT_EQ(dropped->shortlists, 1);
  EXPECT_EQ(Exists("stock_quotes_p2019_01"), "f");
  EXPECT_EQ(Exists("nifty_quotes_p2019_01"), "f");
  EXPECT_EQ(Exists("shortlist_snapshots_p2019_01"), "f");
  EXPECT_EQ(Exists("stock_quotes_p2019_02"), "t");
  EXPECT_EQ(Exists("stock_quotes_p2019_03"), "t");
  EXPECT_EQ(Exists("stock_quotes_default"), "t");
  EXPECT_EQ(db_->Query("SELECT string_agg(trading_day::text, ',' ORDER BY "
                       "trading_day) FROM stock_quotes WHERE nse_symbol = "
                       "'RET'"),
            "2019-02-01,2019-03-15");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes WHERE "
                       "trading_day >= '2019-02-01'"),
            others);
  // Again: nothing left to drop.
  dropped = repos_->partitions.DropBefore(absl::CivilDay(2019, 2, 1),
                                          absl::Seconds(5));
  ASSERT_TRUE(dropped.ok()) << dropped.status();
  EXPECT_EQ(dropped->total(), 0);
}

TEST_F(PartitionedHistoryTest, PurgeBeforeDropsWholeMonthsAndTrimsTheRest) {
  WriteQuotes("2018-05-20T10:00:00", {"PUR"});
  WriteQuotes("2018-06-10T10:00:00", {"PUR"});
  WriteQuotes("2018-06-20T10:00:00", {"PUR"});
  EnsurePartitions();
  auto counted = repos_->market_data.PurgeBefore(absl::CivilDay(2018, 6, 15),
                                                 /*dry_run=*/true);
  ASSERT_TRUE(counted.ok()) << counted.status();
  EXPECT_EQ(counted->quotes, 2);
  EXPECT_EQ(Exists("stock_quotes_p2018_05"), "t");
  auto purged = repos_->market_data.PurgeBefore(absl::CivilDay(2018, 6, 15),
                                                /*dry_run=*/false);
  ASSERT_TRUE(purged.ok()) << purged.status();
  EXPECT_EQ(purged->quotes, 2);
  EXPECT_EQ(Exists("stock_quotes_p2018_05"), "f");
  EXPECT_EQ(Exists("stock_quotes_p2018_06"), "t");
  EXPECT_EQ(db_->Query("SELECT string_agg(trading_day::text, ',') FROM "
                       "stock_quotes WHERE nse_symbol = 'PUR'"),
            "2018-06-20");
}

TEST_F(PartitionedHistoryTest, DeletingDaysTrimsAMonthAndEmptiesWholeMonths) {
  // April 2017 whole (30 days), two days of May.
  WriteQuotes("2017-04-01T10:00:00", {"DEL1", "DEL2"});
  WriteQuotes("2017-04-30T10:00:00", {"DEL1"});
  WriteQuotes("2017-05-02T10:00:00", {"DEL1"});
  WriteQuotes("2017-05-03T10:00:00", {"DEL1"});
  WriteNifty("2017-04-12T10:00:00");
  EnsurePartitions();
  ASSERT_EQ(db_->Query("SELECT count(*) FROM stock_quotes_p2017_04"), "3");
  std::vector<absl::CivilDay> days;
  for (absl::CivilDay d(2017, 4, 1); d < absl::CivilDay(2017, 5, 1); ++d) {
    days.push_back(d);
  }
  days.push_back(absl::CivilDay(2017, 5, 2));
  auto deleted = repos_->market_data.DeleteDays(days);
  ASSERT_TRUE(deleted.ok()) << deleted.status();
  EXPECT_EQ(deleted->quotes, 4);
  EXPECT_EQ(deleted->nifty_quotes, 1);
  EXPECT_EQ(deleted->shortlists, 0);
  // April's partitions stay, empty; May keeps its other day.
  EXPECT_EQ(Exists("stock_quotes_p2017_04"), "t");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes_p2017_04"), "0");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM nifty_quotes_p2017_04"), "0");
  EXPECT_EQ(db_->Query("SELECT string_agg(trading_day::text, ',') FROM "
                       "stock_quotes WHERE nse_symbol LIKE 'DEL%'"),
            "2017-05-03");
}

// A quote on each side of the end of January 2025 (Asia/Kolkata): the
// reads that span the two partitions see both, in order, and the per-day
// ones only their day's.
TEST_F(PartitionedHistoryTest, ReadsWorkAcrossAMonthBoundary) {
  WriteQuotes("2025-01-31T15:25:00", {"EDGE"}, 1);
  WriteNifty("2025-01-31T15:25:00");
  WriteShortlist("2025-01-31T15:25:00");
  // 00:10 IST on 1 February is still 31 January in UTC.
  WriteQuotes("2025-02-01T00:10:00", {"EDGE"}, 2);
  WriteNifty("2025-02-01T00:10:00");
  WriteShortlist("2025-02-01T00:10:00");
  EnsurePartitions();
  EXPECT_EQ(PartitionOfQuote("EDGE"),
            "stock_quotes_p2025_01,stock_quotes_p2025_02");

  // As of: each day's own latest.
  auto jan = repos_->quotes.FindLatest(
      "EDGE", domain::DayStart(absl::CivilDay(2025, 1, 31)),
      At("2025-01-31T23:59:00"));
  ASSERT_TRUE(jan.ok() && jan->has_value());
  EXPECT_EQ((*jan)->quote_data().payload().last_price(), 1);
  auto feb = repos_->quotes.FindLatest(
      "EDGE", domain::DayStart(absl::CivilDay(2025, 2, 1)),
      At("2025-02-01T10:00:00"));
  ASSERT_TRUE(feb.ok() && feb->has_value());
  EXPECT_EQ((*feb)->quote_data().payload().last_price(), 2);
  auto nifty = repos_->nifty.FindLatest(
      domain::DayStart(absl::CivilDay(2025, 2, 1)), At("2025-02-01T10:00:00"));
  ASSERT_TRUE(nifty.ok() && nifty->has_value());

  // Timeline across both partitions, ascending.
  auto timeline =
      repos_->quotes.ListRange("EDGE", At("2025-01-31T09:00:00"),
                               At("2025-02-01T12:00:00"), std::nullopt, 10);
  ASSERT_TRUE(timeline.ok()) << timeline.status();
  ASSERT_EQ(timeline->size(), 2u);
  EXPECT_EQ((*timeline)[0].quote_data().payload().last_price(), 1);
  EXPECT_EQ((*timeline)[1].quote_data().payload().last_price(), 2);
  // In pages of one: the second page starts after the first's instant.
  auto first_page =
      repos_->quotes.ListRange("EDGE", At("2025-01-31T09:00:00"),
                               At("2025-02-01T12:00:00"), std::nullopt, 1);
  ASSERT_TRUE(first_page.ok() && first_page->size() == 1u);
  auto second_page = repos_->quotes.ListRange("EDGE", At("2025-01-31T09:00:00"),
                                              At("2025-02-01T12:00:00"),
                                              At("2025-01-31T15:25:00"), 1);
  ASSERT_TRUE(second_page.ok()) << second_page.status();
  ASSERT_EQ(second_page->size(), 1u);
  EXPECT_EQ((*second_page)[0].quote_data().payload().last_price(), 2);

  // Day replay: each day from its own partition.
  MarketEventRepository events(db_->pool());
  for (const auto& [day, price] :
       {std::pair{absl::CivilDay(2025, 1, 31), 1.0},
        std::pair{absl::CivilDay(2025, 2, 1), 2.0}}) {
    const absl::Time start = domain::DayStart(day);
    auto quotes =
        events.ReplayQuotes(day, {"EDGE"}, domain::DayStartBound(start),
                            domain::DayStart(day + 1), 10);
    ASSERT_TRUE(quotes.ok()) << quotes.status();
    ASSERT_EQ(quotes->size(), 1u) << day;
    EXPECT_EQ((*quotes)[0].event.quote().quote_data().payload().last_price(),
              price);
    auto niftys = events.ReplayNifty(day, domain::DayStartBound(start),
                                     domain::DayStart(day + 1), 10);
    ASSERT_TRUE(niftys.ok()) << niftys.status();
    EXPECT_EQ(niftys->size(), 1u) << day;
    auto shortlists = events.ReplayShortlists(day, domain::DayStartBound(start),
                                              domain::DayStart(day + 1), 10);
    ASSERT_TRUE(shortlists.ok()) << shortlists.status();
    EXPECT_EQ(shortlists->size(), 1u) << day;
  }

  // Streams: both records, in the order they were written, though they
  // come from two partitions.
  auto up_to = events.LatestPosition();
  ASSERT_TRUE(up_to.ok()) << up_to.status();
  auto stream =
      events.ListQuotesSince({"EDGE"}, domain::StreamPosition{}, *up_to, 10);
  ASSERT_TRUE(stream.ok()) << stream.status();
  ASSERT_EQ(stream->size(), 2u);
  EXPECT_LT((*stream)[0].position, (*stream)[1].position);
  EXPECT_EQ((*stream)[0].event.quote().quote_data().payload().last_price(), 1);
  EXPECT_EQ((*stream)[1].event.quote().quote_data().payload().last_price(), 2);
  auto nifty_stream =
      events.ListNiftySince(domain::StreamPosition{}, *up_to, 100);
  ASSERT_TRUE(nifty_stream.ok()) << nifty_stream.status();
  int edge_nifty = 0;
  for (const StreamEvent& e : *nifty_stream) {
    const absl::Time at =
        absl::FromUnixSeconds(e.event.nifty().timestamp().seconds());
    if (at == At("2025-01-31T15:25:00") || at == At("2025-02-01T00:10:00")) {
      ++edge_nifty;
    }
  }
  EXPECT_EQ(edge_nifty, 2);
}

}  // namespace
}  // namespace mdc::storage
