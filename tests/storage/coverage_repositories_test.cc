// The coverage view's repositories against a real PostgreSQL: the minutes
// of a day's session that hold quotes, NIFTY quotes and shortlists, the
// latest day with data, and the developers' write tallies.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "domain/coverage.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "storage/repositories.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class CoverageRepositoriesTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    writer_ = NewDeveloper("cover", &writer_hash_);
    ASSERT_FALSE(HasFailure());
  }

  void Quotes(const char* wall_clock, std::vector<std::string> symbols) {
    domain::QuoteBatch batch;
    batch.observed_at = At(wall_clock);
    for (auto& symbol : symbols) {
      domain::StockObservation q;
      q.symbol = std::move(symbol);
      q.quote.set_status(v1::SUCCESS);
      q.quote.mutable_payload()->set_last_price(100);
      batch.quotes.push_back(std::move(q));
    }
    ASSERT_TRUE(WrittenBy(Write(repos_->quotes, &QuoteRepository::UpsertBatch,
                                batch, writer_hash_),
                          writer_));
  }

  void Nifty(const char* wall_clock) {
    domain::NiftyObservation nifty;
    nifty.observed_at = At(wall_clock);
    nifty.quote.set_status(v1::SUCCESS);
    nifty.quote.mutable_payload()->set_last_price(23000);
    ASSERT_TRUE(WrittenBy(
        Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
        writer_));
  }

  void Shortlist(const char* wall_clock, v1::Scope scope) {
    domain::ShortlistSnapshot s;
    s.type = v1::TOP_GAINERS;
    s.scope = scope;
    s.observed_at = At(wall_clock);
    s.entries.add_entries()->set_nse_symbol("INFY");
    ASSERT_TRUE(WrittenBy(Write(repos_->shortlists,
                                &ShortlistRepository::Upsert, s, writer_hash_),
                          writer_));
  }

  static SessionMinutesSpec Session(absl::CivilDay day) {
    return SessionMinutesSpec{domain::SessionOpen(day),
                              domain::SessionMinutes(day)};
  }

  static std::vector<domain::MinuteRange> Ranges(const SeriesMinutes& s) {
    return domain::MinuteRanges(s.minute_bits);
  }

  int64_t writer_ = 0;
  std::string writer_hash_;
};

TEST_F(CoverageRepositoriesTest, MinutesOfTheSessionWithQuotes) {
  const absl::CivilDay day(2031, 3, 3);
  Quotes("2031-03-03T09:10:00", {"INFY"});  // pre-open: no minute
  Quotes("2031-03-03T09:15:10", {"INFY", "TCS"});
  Quotes("2031-03-03T09:15:40", {"INFY"});  // the same minute again
  Quotes("2031-03-03T09:16:59", {"INFY"});
  Quotes("2031-03-03T09:20:00", {"INFY"});
  Quotes("2031-03-03T15:29:59", {"TCS"});    // the last minute
  Quotes("2031-03-03T15:30:00", {"TCS"});    // after the close
  Quotes("2031-03-04T09:15:00", {"WIPRO"});  // another day

  auto quotes =
      repos_->coverage.QuoteMinutes(day, Session(day), domain::FarFuture());
  ASSERT_TRUE(quotes.ok()) << quotes.status();
  ASSERT_EQ(quotes->size(), 2u);
  const SeriesMinutes& infy = (*quotes)[0];
  EXPECT_EQ(infy.key, "INFY");
  EXPECT_EQ(infy.records, 5);
  EXPECT_EQ(infy.last_time, At("2031-03-03T09:20:00"));
  EXPECT_EQ(infy.minute_bits.size(), 375u);
  EXPECT_EQ(Ranges(infy), (std::vector<domain::MinuteRange>{{0, 1}, {5, 5}}));
  const SeriesMinutes& tcs = (*quotes)[1];
  EXPECT_EQ(tcs.key, "TCS");
  EXPECT_EQ(tcs.records, 3);
  EXPECT_EQ(Ranges(tcs),
            (std::vector<domain::MinuteRange>{{0, 0}, {374, 374}}));

  // Cut at an instant (the backtest clock): only what came before it.
  auto early = repos_->coverage.QuoteMinutes(day, Session(day),
                                             At("2031-03-03T09:16:00"));
  ASSERT_TRUE(early.ok());
  ASSERT_EQ(early->size(), 2u);
  EXPECT_EQ((*early)[0].records, 3);
  EXPECT_EQ(Ranges((*early)[0]), (std::vector<domain::MinuteRange>{{0, 0}}));

  // A symbol with pre-open quotes only has records but no minute.
  Quotes("2031-03-03T09:00:00", {"ITC"});
  auto again =
      repos_->coverage.QuoteMinutes(day, Session(day), domain::FarFuture());
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->size(), 3u);
  EXPECT_EQ((*again)[1].key, "ITC");
  EXPECT_EQ((*again)[1].records, 1);
  EXPECT_TRUE((*again)[1].minute_bits.empty());
}

TEST_F(CoverageRepositoriesTest, MinutesOfNiftyAndOfEachShortlist) {
  const absl::CivilDay day(2031, 4, 7);
  auto none =
      repos_->coverage.NiftyMinutes(day, Session(day), domain::FarFuture());
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());

  Nifty("2031-04-07T09:15:00");
  Nifty("2031-04-07T09:17:30");
  auto nifty =
      repos_->coverage.NiftyMinutes(day, Session(day), domain::FarFuture());
  ASSERT_TRUE(nifty.ok());
  ASSERT_TRUE(nifty->has_value());
  EXPECT_EQ((*nifty)->records, 2);
  EXPECT_EQ(Ranges(**nifty),
            (std::vector<domain::MinuteRange>{{0, 0}, {2, 2}}));

  Shortlist("2031-04-07T09:20:00", v1::TOP_5);
  Shortlist("2031-04-07T09:25:00", v1::TOP_5);
  Shortlist("2031-04-07T09:25:00", v1::FULL);
  auto lists =
      repos_->coverage.ShortlistMinutes(day, Session(day), domain::FarFuture());
  ASSERT_TRUE(lists.ok());
  ASSERT_EQ(lists->size(), 2u);
  EXPECT_EQ((*lists)[0].key, "TOP_GAINERS");
  EXPECT_EQ((*lists)[0].key2, "FULL");  // byte order: FULL before TOP_5
  EXPECT_EQ(Ranges((*lists)[0]), (std::vector<domain::MinuteRange>{{10, 10}}));
  EXPECT_EQ((*lists)[1].key2, "TOP_5");
  EXPECT_EQ((*lists)[1].records, 2);
  EXPECT_EQ(Ranges((*lists)[1]),
            (std::vector<domain::MinuteRange>{{5, 5}, {10, 10}}));
}

TEST_F(CoverageRepositoriesTest, LatestDayWithAnyRecord) {
  Shortlist("2032-06-01T10:00:00", v1::TOP_5);
  Nifty("2032-06-02T10:00:00");
  Quotes("2032-06-03T10:00:00", {"INFY"});
  const absl::CivilDay last(2200, 1, 1);
  auto latest = repos_->coverage.LatestDay(last, domain::FarFuture());
  ASSERT_TRUE(latest.ok()) << latest.status();
  EXPECT_EQ(*latest, absl::CivilDay(2032, 6, 3));
  // Before an instant: the quotes of June 3rd came at or after it.
  auto before = repos_->coverage.LatestDay(absl::CivilDay(2032, 6, 3),
                                           At("2032-06-03T10:00:00"));
  ASSERT_TRUE(before.ok());
  EXPECT_EQ(*before, absl::CivilDay(2032, 6, 2));
  auto none = repos_->coverage.LatestDay(absl::CivilDay(1999, 1, 1),
                                         domain::FarFuture());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(CoverageRepositoriesTest, WriteTalliesMergeAndSummarise) {
  const absl::CivilDay day(2031, 5, 5);
  const absl::Time t0 = At("2031-05-05T09:30:00");
  const int64_t other = NewDeveloper("cover");
  auto tally = [](int64_t id, domain::RecordKind kind, absl::CivilDay d,
                  absl::Time written, absl::Time observed, int64_t records) {
    return domain::WriteTally{id, "", kind, d, written, observed, records};
  };
  ASSERT_TRUE(
      repos_->developer_writes
          .Merge({tally(writer_, domain::RecordKind::kQuote, day, t0,
                        t0 - absl::Seconds(1), 300),
                  tally(writer_, domain::RecordKind::kNifty, day, t0, t0, 1),
                  tally(other, domain::RecordKind::kShortlist, day - 1,
                        t0 - absl::Hours(20), t0 - absl::Hours(20), 2)})
          .ok());
  // A later flush of another server: later write, older records.
  ASSERT_TRUE(
      repos_->developer_writes
          .Merge({tally(writer_, domain::RecordKind::kQuote, day,
                        t0 + absl::Seconds(2), t0 - absl::Minutes(5), 200)})
          .ok());

  auto summaries = repos_->developer_writes.Summaries(day);
  ASSERT_TRUE(summaries.ok()) << summaries.status();
  auto find = [&](int64_t id, domain::RecordKind kind) -> const WriterSummary* {
    for (const WriterSummary& s : *summaries) {
      if (s.developer_id == id && s.kind == kind) return &s;
    }
    return nullptr;
  };
  // One row per developer and kind, the kinds of one developer in order.
  int writer_rows = 0;
  for (const WriterSummary& s : *summaries)
    writer_rows += s.developer_id == writer_;
  EXPECT_EQ(writer_rows, 2);
  const WriterSummary* quotes = find(writer_, domain::RecordKind::kQuote);
  ASSERT_NE(quotes, nullptr);
  EXPECT_LT(find(writer_, domain::RecordKind::kNifty),
            quotes);  // nifty < quotes
  EXPECT_EQ(quotes->last_written, t0 + absl::Seconds(2));
  EXPECT_EQ(quotes->last_observed, t0 - absl::Seconds(1));
  EXPECT_EQ(quotes->day_records, 500);
  EXPECT_EQ(quotes->day_last_written, t0 + absl::Seconds(2));
  // The other wrote the day before only: known, with nothing that day.
  const WriterSummary* lists = find(other, domain::RecordKind::kShortlist);
  ASSERT_NE(lists, nullptr);
  EXPECT_EQ(lists->last_written, t0 - absl::Hours(20));
  EXPECT_EQ(lists->day_records, 0);
  EXPECT_FALSE(lists->day_last_written.has_value());

  // A developer deleted meanwhile: its tallies are dropped, the rest kept;
  // its rows go with it.
  ASSERT_TRUE(repos_->developers.Delete(other).ok());
  ASSERT_TRUE(
      repos_->developer_writes
          .Merge({tally(other, domain::RecordKind::kQuote, day, t0, t0, 1),
                  tally(writer_, domain::RecordKind::kQuote, day, t0, t0, 1)})
          .ok());
  auto after = repos_->developer_writes.Summaries(day);
  ASSERT_TRUE(after.ok());
  for (const WriterSummary& s : *after) {
    EXPECT_NE(s.developer_id, other);
    if (s.developer_id == writer_ && s.kind == domain::RecordKind::kQuote) {
      EXPECT_EQ(s.day_records, 501);
    }
  }
}

}  // namespace
}  // namespace mdc::storage
