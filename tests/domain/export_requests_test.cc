#include "domain/export_requests.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domain/error_reason.h"
#include "domain/time.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

v1::ExportQuotesRequest Quotes(const char* start, const char* end) {
  v1::ExportQuotesRequest request;
  request.set_start_date(start);
  request.set_end_date(end);
  return request;
}

TEST(ExportDays, OneDayByDefaultAndBothEndsIncluded) {
  auto one = ParseExportQuotes(Quotes("2035-03-06", ""), BacktestClock());
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->days.first, absl::CivilDay(2035, 3, 6));
  EXPECT_EQ(one->days.last, absl::CivilDay(2035, 3, 6));
  EXPECT_EQ(one->days.start, DayStart(absl::CivilDay(2035, 3, 6)));
  EXPECT_EQ(one->days.end, DayStart(absl::CivilDay(2035, 3, 7)));
  auto month =
      ParseExportQuotes(Quotes("2035-03-01", "2035-03-31"), BacktestClock());
  ASSERT_TRUE(month.ok()) << month.status();
  EXPECT_EQ(month->days.end, DayStart(absl::CivilDay(2035, 4, 1)));
}

TEST(ExportDays, RefusesBadRanges) {
  const struct {
    const char* start;
    const char* end;
    const char* field;
  } cases[] = {
      {"", "", "start_date"},
      {"2035-02-30", "", "start_date"},
      {"2035-03-06", "2035-03-05", "end_date"},
      {"2035-03-01", "2035-04-01", "end_date"},  // 32 days
      {"2035-03-06", "06/03/2035", "end_date"},
  };
  for (const auto& c : cases) {
    auto parsed = ParseExportQuotes(Quotes(c.start, c.end), BacktestClock());
    ASSERT_FALSE(parsed.ok()) << c.start << " " << c.end;
    EXPECT_THAT(testing::ViolatedFields(parsed.status()), ElementsAre(c.field))
        << c.start << " " << c.end;
  }
}

TEST(ExportDays, TheBacktestClockCutsTheEndAndForbidsTheFuture) {
  const absl::Time clock =
      DayStart(absl::CivilDay(2035, 3, 7)) + absl::Hours(5);
  auto cut = ParseExportQuotes(Quotes("2035-03-06", "2035-03-09"),
                               BacktestClock(clock));
  ASSERT_TRUE(cut.ok()) << cut.status();
  EXPECT_EQ(cut->days.end, clock);
  auto future =
      ParseExportQuotes(Quotes("2035-03-08", ""), BacktestClock(clock));
  EXPECT_EQ(future.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(future.status().message().find("start_date"), std::string::npos);
}

TEST(ExportRequests, ReportEveryBadParameterAtOnce) {
  v1::ExportCandlesRequest candles;
  candles.set_start_date("2035-03-06");
  candles.set_end_date("2035-02-01");
  candles.set_interval("7minute");
  candles.add_symbols("OK,BAD ONE");
  auto parsed = ParseExportCandles(candles, BacktestClock());
  EXPECT_THAT(testing::ViolatedFields(parsed.status()),
              UnorderedElementsAre("end_date", "interval", "symbols[1]"));

  v1::ExportShortlistsRequest shortlists;
  shortlists.set_start_date("2035-03-06");
  shortlists.set_type("LOSERS");
  shortlists.set_scope("TOP_10");
  EXPECT_THAT(testing::ViolatedFields(
                  ParseExportShortlists(shortlists, BacktestClock()).status()),
              UnorderedElementsAre("type", "scope"));
}

TEST(ExportRequests, ShortlistSelection) {
  v1::ExportShortlistsRequest request;
  request.set_start_date("2035-03-06");
  request.set_scope("full");
  auto parsed = ParseExportShortlists(request, BacktestClock());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  v1::Shortlist full;
  full.set_shortlist_type(v1::VOLUME_SHOCKERS);
  full.set_scope(v1::FULL);
  v1::Shortlist top;
  top.set_shortlist_type(v1::VOLUME_SHOCKERS);
  top.set_scope(v1::TOP_5);
  EXPECT_TRUE(Selects(*parsed, full));
  EXPECT_FALSE(Selects(*parsed, top));
}

TEST(ExportRequests, CandlesTakeTheIndex) {
  v1::ExportCandlesRequest request;
  request.set_start_date("2035-03-06");
  request.set_interval("1day");
  request.add_symbols("nifty,INFY");
  auto parsed = ParseExportCandles(request, BacktestClock());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->symbols, ElementsAre("NIFTY", "INFY"));
  EXPECT_EQ(parsed->interval.name, "1day");
}

TEST(ExportRequests, AdjustmentIsOneOfThreeAndNeedsSymbols) {
  v1::ExportQuotesRequest quotes = Quotes("2035-03-06", "");
  auto raw = ParseExportQuotes(quotes, BacktestClock());
  ASSERT_TRUE(raw.ok()) << raw.status();
  EXPECT_EQ(raw->adjustment, Adjustment::kRaw);

  quotes.set_adjustment("split");
  EXPECT_THAT(testing::ViolatedFields(
                  ParseExportQuotes(quotes, BacktestClock()).status()),
              UnorderedElementsAre("adjustment"));
  quotes.add_symbols("INFY");
  auto split = ParseExportQuotes(quotes, BacktestClock());
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->adjustment, Adjustment::kSplit);

  v1::ExportCandlesRequest candles;
  candles.set_start_date("2035-03-06");
  candles.set_interval("1day");
  candles.add_symbols("INFY");
  candles.set_adjustment("dividend");
  EXPECT_THAT(testing::ViolatedFields(
                  ParseExportCandles(candles, BacktestClock()).status()),
              UnorderedElementsAre("adjustment"));
  candles.set_adjustment("all");
  auto all = ParseExportCandles(candles, BacktestClock());
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(all->adjustment, Adjustment::kAll);
}

}  // namespace
}  // namespace mdc::domain
