// Windows of range reads: defaults, half-open bounds, the backtest clock.
#include "domain/time_range.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "domain/time.h"

namespace mdc::domain {
namespace {

using ::testing::HasSubstr;

absl::Time Ist(const char* wall_clock) {
  return *ParseInstant(wall_clock, "Asia/Kolkata");
}

const absl::Time kWallNow = Ist("2025-03-03T12:00:00");

TEST(TimeRangeFor, DefaultsToTheSessionOpenUntilNow) {
  auto range =
      TimeRangeFor("", "", "", BacktestClock(), kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, Ist("2025-03-03T09:15:00"));
  EXPECT_EQ(range->end, kWallNow);
}

TEST(TimeRangeFor, DefaultStartIsTheOpenOfEndsTradingDay) {
  auto range = TimeRangeFor("", "2025-02-28T11:00:00", "", BacktestClock(),
                            kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, Ist("2025-02-28T09:15:00"));
  EXPECT_EQ(range->end, Ist("2025-02-28T11:00:00"));
}

TEST(TimeRangeFor, EndBeforeTheOpenGivesAnEmptyDefaultWindow) {
  auto range = TimeRangeFor("", "2025-02-28T09:00:00", "", BacktestClock(),
                            kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, range->end);
}

TEST(TimeRangeFor, InclusiveEndTakesTheEndInstantIn) {
  auto range = TimeRangeFor("2025-02-28T10:00:00", "2025-02-28T11:00:00", "",
                            BacktestClock(), kWallNow, EndIs::kInclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_GT(range->end, Ist("2025-02-28T11:00:00"));
  EXPECT_LT(range->end, Ist("2025-02-28T11:00:01"));
  EXPECT_EQ(range->asked_end, Ist("2025-02-28T11:00:00"));
}

TEST(TimeRangeFor, ZoneAppliesToBothBounds) {
  auto range = TimeRangeFor("2025-02-28T04:00:00", "2025-02-28T05:00:00", "UTC",
                            BacktestClock(), kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, Ist("2025-02-28T09:30:00"));
  EXPECT_EQ(range->end, Ist("2025-02-28T10:30:00"));
}

TEST(TimeRangeFor, StartAfterEndIsInvalid) {
  auto range = TimeRangeFor("2025-02-28T11:00:01", "2025-02-28T11:00:00", "",
                            BacktestClock(), kWallNow, EndIs::kExclusive);
  ASSERT_EQ(range.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(range.status().message()),
              HasSubstr("start_datetime: must not be after end_datetime"));
  EXPECT_TRUE(TimeRangeFor("2025-02-28T11:00:00", "2025-02-28T11:00:00", "",
                           BacktestClock(), kWallNow, EndIs::kExclusive)
                  .ok());
}

TEST(TimeRangeFor, NamesEveryMalformedParameter) {
  auto range = TimeRangeFor("2025-02-30T10:00:00", "yesterday", "Mars/Base",
                            BacktestClock(), kWallNow, EndIs::kExclusive);
  ASSERT_EQ(range.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(range.status().message());
  EXPECT_THAT(message, HasSubstr("timezone:"));
  EXPECT_THAT(message, HasSubstr("start_datetime:"));
  EXPECT_THAT(message, HasSubstr("end_datetime:"));
}

TEST(TimeRangeFor, BacktestClockCutsTheWindow) {
  const BacktestClock clock(Ist("2025-03-03T10:00:00"));
  auto range = TimeRangeFor("2025-03-03T09:15:00", "2025-03-03T15:30:00", "",
                            clock, kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->end, Ist("2025-03-03T10:00:00"));
  EXPECT_EQ(range->asked_end, Ist("2025-03-03T15:30:00"));
}

TEST(TimeRangeFor, BacktestClockIsNowWhenEndIsAbsent) {
  const BacktestClock clock(Ist("2025-02-27T10:00:00"));
  auto range = TimeRangeFor("", "", "", clock, kWallNow, EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, Ist("2025-02-27T09:15:00"));
  EXPECT_EQ(range->end, Ist("2025-02-27T10:00:00"));
}

TEST(TimeRangeFor, DefaultStartFollowsTheEndTheClockCut) {
  // The clock is Tuesday noon; the window asked for ends on Wednesday.
  const BacktestClock clock(Ist("2025-03-04T12:00:00"));
  auto range = TimeRangeFor("", "2025-03-05T15:30:00", "", clock, kWallNow,
                            EndIs::kExclusive);
  ASSERT_TRUE(range.ok()) << range.status();
  EXPECT_EQ(range->start, Ist("2025-03-04T09:15:00"));
  EXPECT_EQ(range->end, Ist("2025-03-04T12:00:00"));
}

TEST(TimeRangeFor, StartAtOrAfterTheClockIsDenied) {
  const BacktestClock clock(Ist("2025-03-03T10:00:00"));
  for (const char* start : {"2025-03-03T10:00:00", "2025-03-03T11:00:00"}) {
    auto range =
        TimeRangeFor(start, "", "", clock, kWallNow, EndIs::kExclusive);
    ASSERT_EQ(range.status().code(), absl::StatusCode::kPermissionDenied)
        << start;
    EXPECT_THAT(std::string(range.status().message()),
                HasSubstr("2025-03-03T04:30:00Z"));
  }
}

}  // namespace
}  // namespace mdc::domain
