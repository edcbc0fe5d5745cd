// Candles from price points: bucket alignment, OHLC, and the volume rule,
// against expectations computed by hand.
#include "domain/candles.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Time Ist(const char* wall_clock) {
  return *ParseInstant(wall_clock, "Asia/Kolkata");
}

PricePoint Point(const char* wall_clock, std::optional<double> price,
                 std::optional<double> volume) {
  return PricePoint{Ist(wall_clock), price, volume};
}

CandleInterval Interval(const char* name) { return *ParseInterval(name); }

struct Expected {
  const char* time;  // IST wall clock of the bucket start
  double open, high, low, close;
  std::optional<double> volume;
};

void ExpectCandles(const std::vector<Candle>& actual,
                   const std::vector<Expected>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(expected[i].time);
    EXPECT_EQ(actual[i].time, Ist(expected[i].time));
    EXPECT_DOUBLE_EQ(actual[i].open, expected[i].open);
    EXPECT_DOUBLE_EQ(actual[i].high, expected[i].high);
    EXPECT_DOUBLE_EQ(actual[i].low, expected[i].low);
    EXPECT_DOUBLE_EQ(actual[i].close, expected[i].close);
    EXPECT_EQ(actual[i].volume, expected[i].volume);
  }
}

// Monday 2025-03-03: quotes on bucket boundaries (09:15:00, 09:16:00,
// 09:20:00, 10:15:00), a gap (no quote 09:18-09:19), a quote without a
// price, and a volume reset at 09:21:00 (cumulative 2600 → 300).
std::vector<PricePoint> SyntheticDay() {
  return {
      Point("2025-03-03T09:15:00", 100, 1000),
      Point("2025-03-03T09:15:30", 102, 1500),
      Point("2025-03-03T09:16:00", 101, 1800),
      Point("2025-03-03T09:17:45", 99, 2000),
      Point("2025-03-03T09:20:00", 103, 2600),
      Point("2025-03-03T09:20:10", std::nullopt, 9999),
      Point("2025-03-03T09:21:00", 104, 300),
      Point("2025-03-03T09:21:30", 98, 500),
      Point("2025-03-03T10:15:00", 105, 900),
      Point("2025-03-03T10:40:00", 107, 1000),
      Point("2025-03-03T15:29:00", 106, 1200),
  };
}

TEST(BuildCandles, OneMinute) {
  ExpectCandles(BuildCandles(Interval("1minute"), SyntheticDay()),
                {
                    {"2025-03-03T09:15:00", 100, 102, 100, 102, 1500},
                    {"2025-03-03T09:16:00", 101, 101, 101, 101, 300},
                    {"2025-03-03T09:17:00", 99, 99, 99, 99, 200},
                    {"2025-03-03T09:20:00", 103, 103, 103, 103, 600},
                    {"2025-03-03T09:21:00", 104, 104, 98, 98, 500},
                    {"2025-03-03T10:15:00", 105, 105, 105, 105, 400},
                    {"2025-03-03T10:40:00", 107, 107, 107, 107, 100},
                    {"2025-03-03T15:29:00", 106, 106, 106, 106, 200},
                });
}

// A candle remembers when its close was quoted (an unpriced quote after it
// changes nothing): across a rename, that names its stored symbol.
TEST(BuildCandles, CloseTimeIsTheLastPricedQuotes) {
  const auto candles = BuildCandles(Interval("5minute"), SyntheticDay());
  ASSERT_GE(candles.size(), 2u);
  EXPECT_EQ(candles[0].close_time, Ist("2025-03-03T09:17:45"));
  EXPECT_EQ(candles[1].close_time, Ist("2025-03-03T09:21:30"));
  const auto day = BuildCandles(Interval("1day"), SyntheticDay());
  ASSERT_EQ(day.size(), 1u);
  EXPECT_EQ(day[0].close_time, Ist("2025-03-03T15:29:00"));
}

TEST(BuildCandles, FiveMinutes) {
  ExpectCandles(BuildCandles(Interval("5minute"), SyntheticDay()),
                {
                    {"2025-03-03T09:15:00", 100, 102, 99, 99, 2000},
                    {"2025-03-03T09:20:00", 103, 104, 98, 98, 1100},
                    {"2025-03-03T10:15:00", 105, 105, 105, 105, 400},
                    {"2025-03-03T10:40:00", 107, 107, 107, 107, 100},
                    {"2025-03-03T15:25:00", 106, 106, 106, 106, 200},
                });
}

TEST(BuildCandles, OneHourAlignsToTheSessionOpen) {
  ExpectCandles(BuildCandles(Interval("1hour"), SyntheticDay()),
                {
                    {"2025-03-03T09:15:00", 100, 104, 98, 98, 3100},
                    {"2025-03-03T10:15:00", 105, 107, 105, 107, 500},
                    {"2025-03-03T15:15:00", 106, 106, 106, 106, 200},
                });
}

TEST(BuildCandles, OneDayStartsAtMidnightIst) {
  ExpectCandles(BuildCandles(Interval("1day"), SyntheticDay()),
                {{"2025-03-03T00:00:00", 100, 107, 98, 106, 3800}});
}

TEST(BuildCandles, VolumeBaselineRestartsEachTradingDay) {
  // Tuesday's first quote contributes its whole cumulative volume even
  // though it is higher than Monday's last.
  const std::vector<PricePoint> points = {
      Point("2025-03-03T15:00:00", 10, 5000),
      Point("2025-03-04T09:15:00", 11, 7000),
      Point("2025-03-04T09:16:00", 12, 7100),
  };
  ExpectCandles(BuildCandles(Interval("1day"), points),
                {{"2025-03-03T00:00:00", 10, 10, 10, 10, 5000},
                 {"2025-03-04T00:00:00", 11, 12, 11, 12, 7100}});
}

TEST(BuildCandles, QuoteWithoutVolumeKeepsTheBaseline) {
  const std::vector<PricePoint> points = {
      Point("2025-03-03T09:15:00", 10, 100),
      Point("2025-03-03T09:16:00", 11, std::nullopt),
      Point("2025-03-03T09:17:00", 12, 160),
  };
  ExpectCandles(BuildCandles(Interval("1minute"), points),
                {{"2025-03-03T09:15:00", 10, 10, 10, 10, 100},
                 {"2025-03-03T09:16:00", 11, 11, 11, 11, std::nullopt},
                 {"2025-03-03T09:17:00", 12, 12, 12, 12, 60}});
}

// No volume reported (null) is not zero volume: a bucket has a volume as
// soon as one of its quotes reported one, even an unchanged cumulative.
TEST(BuildCandles, VolumeIsNullOnlyWhenNoQuoteReportedOne) {
  const std::vector<PricePoint> points = {
      Point("2025-03-03T09:15:00", 10, std::nullopt),
      Point("2025-03-03T09:15:30", 10, 40),
      Point("2025-03-03T09:16:00", 11, 40),
      Point("2025-03-03T09:17:00", 12, std::nullopt),
  };
  ExpectCandles(BuildCandles(Interval("1minute"), points),
                {{"2025-03-03T09:15:00", 10, 10, 10, 10, 40},
                 {"2025-03-03T09:16:00", 11, 11, 11, 11, 0},
                 {"2025-03-03T09:17:00", 12, 12, 12, 12, std::nullopt}});
  ExpectCandles(BuildCandles(Interval("1day"),
                             {Point("2025-03-03T09:15:00", 10, std::nullopt),
                              Point("2025-03-03T09:20:00", 9, std::nullopt)}),
                {{"2025-03-03T00:00:00", 10, 10, 9, 9, std::nullopt}});
}

TEST(BuildCandles, WeekIsTheIsoWeekOfTheTradingDay) {
  // Sunday 2025-03-02 belongs to the week of Monday 2025-02-24; Monday
  // 2025-03-03 and Friday 2025-03-07 to the week starting that Monday. The
  // Friday quote at 23:30 UTC is already Saturday in IST: same week.
  const std::vector<PricePoint> points = {
      Point("2025-03-02T10:00:00", 50, 10),
      Point("2025-03-03T10:00:00", 51, 20),
      Point("2025-03-07T10:00:00", 55, 30),
      PricePoint{absl::FromCivil(absl::CivilSecond(2025, 3, 7, 23, 30, 0),
                                 absl::UTCTimeZone()),
                 49, 5},
  };
  ExpectCandles(BuildCandles(Interval("1week"), points),
                {{"2025-02-24T00:00:00", 50, 50, 50, 50, 10},
                 {"2025-03-03T00:00:00", 51, 55, 49, 49, 55}});
}

TEST(BuildCandles, MonthIsTheCalendarMonthOfTheTradingDay) {
  const std::vector<PricePoint> points = {
      Point("2025-02-28T15:00:00", 70, 100),
      Point("2025-03-03T09:15:00", 71, 40),
      Point("2025-03-31T15:00:00", 69, 60),
  };
  ExpectCandles(BuildCandles(Interval("1month"), points),
                {{"2025-02-01T00:00:00", 70, 70, 70, 70, 100},
                 {"2025-03-01T00:00:00", 71, 71, 69, 69, 100}});
}

TEST(BucketStart, PreOpenQuotesFallOnTheSameGrid) {
  EXPECT_EQ(BucketStart(Interval("5minute"), Ist("2025-03-03T09:12:00")),
            Ist("2025-03-03T09:10:00"));
  EXPECT_EQ(BucketStart(Interval("15minute"), Ist("2025-03-03T09:14:59")),
            Ist("2025-03-03T09:00:00"));
  EXPECT_EQ(BucketStart(Interval("1hour"), Ist("2025-03-03T09:14:59")),
            Ist("2025-03-03T08:15:00"));
}

TEST(BucketStart, IntradayBucketsNeverSpanTwoDays) {
  // The 4hour grid of 2025-03-03 is ... 21:15 (previous day), 01:15, 05:15,
  // 09:15, 13:15, 17:15, 21:15; the first bucket is cut at 00:00.
  EXPECT_EQ(BucketStart(Interval("4hour"), Ist("2025-03-03T00:30:00")),
            Ist("2025-03-03T00:00:00"));
  EXPECT_EQ(BucketStart(Interval("4hour"), Ist("2025-03-03T23:59:59")),
            Ist("2025-03-03T21:15:00"));
  EXPECT_EQ(BucketStart(Interval("4hour"), Ist("2025-03-03T13:15:00")),
            Ist("2025-03-03T13:15:00"));
}

TEST(CandleBuilder, TakeFinishedKeepsTheCandleThatMayGrow) {
  CandleBuilder builder(Interval("1minute"));
  EXPECT_TRUE(builder.TakeFinished().empty());
  builder.Add(Point("2035-03-06T09:15:10", 10, 100));
  EXPECT_TRUE(builder.TakeFinished().empty());
  builder.Add(Point("2035-03-06T09:16:10", 11, 150));
  builder.Add(Point("2035-03-06T09:17:10", 12, 170));
  ExpectCandles(builder.TakeFinished(),
                {{"2035-03-06T09:15:00", 10, 10, 10, 10, 100},
                 {"2035-03-06T09:16:00", 11, 11, 11, 11, 50}});
  // The one kept still grows, with the volume baseline it had.
  builder.Add(Point("2035-03-06T09:17:50", 9, 200));
  ExpectCandles(std::move(builder).Finish(),
                {{"2035-03-06T09:17:00", 12, 12, 9, 9, 50}});
}

TEST(BuildCandles, EmptyInputGivesNoCandles) {
  EXPECT_TRUE(BuildCandles(Interval("1minute"), {}).empty());
  EXPECT_TRUE(BuildCandles(Interval("1minute"),
                           {Point("2025-03-03T09:15:00", std::nullopt, 100)})
                  .empty());
}

// Serves `points` (ascending) as a keyset read does, counting the reads.
struct PagedPrices {
  std::vector<PricePoint> points;
  int reads = 0;

  absl::StatusOr<std::vector<PricePoint>> operator()(
      std::optional<absl::Time> after, int limit) {
    ++reads;
    std::vector<PricePoint> page;
    for (const PricePoint& point : points) {
      if (after.has_value() && point.time <= *after) continue;
      if (static_cast<int>(page.size()) == limit) break;
      page.push_back(point);
    }
    return page;
  }
};

TEST(ReadCandles, AnyPageSizeGivesTheCandlesOfTheWholeSeries) {
  const std::vector<PricePoint> day = SyntheticDay();
  for (const char* name : {"1minute", "5minute", "1hour"}) {
    const std::vector<Candle> whole = BuildCandles(Interval(name), day);
    for (int page_size : {1, 2, 3, 10, 11, 100}) {
      SCOPED_TRACE(absl::StrCat(name, " in pages of ", page_size));
      PagedPrices prices{day};
      auto candles = ReadCandles(Interval(name), page_size, std::ref(prices));
      ASSERT_TRUE(candles.ok()) << candles.status();
      ASSERT_EQ(candles->size(), whole.size());
      for (size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ((*candles)[i].time, whole[i].time);
        EXPECT_DOUBLE_EQ((*candles)[i].open, whole[i].open);
        EXPECT_DOUBLE_EQ((*candles)[i].high, whole[i].high);
        EXPECT_DOUBLE_EQ((*candles)[i].low, whole[i].low);
        EXPECT_DOUBLE_EQ((*candles)[i].close, whole[i].close);
        EXPECT_EQ((*candles)[i].volume, whole[i].volume);
      }
      // Full pages, then the short (possibly empty) last one.
      EXPECT_EQ(prices.reads, static_cast<int>(day.size()) / page_size + 1);
    }
  }
}

TEST(ReadCandles, AFailedReadFailsTheWhole) {
  auto candles =
      ReadCandles(Interval("1minute"), 10,
                  [](std::optional<absl::Time>,
                     int) -> absl::StatusOr<std::vector<PricePoint>> {
                    return absl::UnavailableError("database down");
                  });
  ASSERT_FALSE(candles.ok());
  EXPECT_EQ(candles.status(), absl::UnavailableError("database down"));
}

// One priced point a minute from 09:15 IST: one 1-minute candle each.
std::vector<PricePoint> MinutePoints(int count) {
  std::vector<PricePoint> points;
  const absl::Time start = Ist("2025-03-03T09:15:00");
  for (int i = 0; i < count; ++i) {
    points.push_back({start + absl::Minutes(i), 100.0 + i % 7, 1000.0 + i});
  }
  return points;
}

TEST(ReadCandles, HoldsAtMostMaxCandles) {
  PagedPrices exactly{MinutePoints(kMaxCandles)};
  auto candles = ReadCandles(Interval("1minute"), 1000, std::ref(exactly));
  ASSERT_TRUE(candles.ok()) << candles.status();
  EXPECT_EQ(candles->size(), static_cast<size_t>(kMaxCandles));
}

TEST(ReadCandles, StopsReadingOnceThereAreTooManyCandles) {
  PagedPrices prices{MinutePoints(kMaxCandles + 10000)};
  auto candles = ReadCandles(Interval("1minute"), 1000, std::ref(prices));
  ASSERT_FALSE(candles.ok());
  EXPECT_EQ(candles.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(candles.status().message()),
              ::testing::HasSubstr("start_datetime: the range from "
                                   "start_datetime to end_datetime holds more "
                                   "than 50000 1minute candles"));
  // The 51st page of 1000 is the first past the limit.
  EXPECT_EQ(prices.reads, 51);
}

TEST(ParseInterval, AcceptsTheTwelveNames) {
  const std::vector<std::pair<std::string, int>> names = {
      {"1minute", 1},   {"2minute", 2},   {"3minute", 3},   {"5minute", 5},
      {"10minute", 10}, {"15minute", 15}, {"30minute", 30}, {"1hour", 60},
      {"4hour", 240},   {"1day", 1440},   {"1week", 10080}, {"1month", 43200}};
  for (const auto& [name, minutes] : names) {
    auto interval = ParseInterval(name);
    ASSERT_TRUE(interval.ok()) << name;
    EXPECT_EQ(interval->name, name);
    EXPECT_EQ(interval->minutes, minutes) << name;
  }
}

TEST(ParseInterval, RejectsOthersListingTheAcceptedNames) {
  for (const char* bad : {"", "1min", "60minute", "day", "1 minute"}) {
    auto interval = ParseInterval(bad);
    ASSERT_FALSE(interval.ok()) << bad;
    EXPECT_EQ(interval.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(interval.status().message()),
                ::testing::HasSubstr("1minute, 2minute"));
  }
}

}  // namespace
}  // namespace mdc::domain
