// How far into a trading day a whole-day read may see under the backtest
// clock.
#include "domain/day_reads.h"

#include <gtest/gtest.h>

#include "domain/backtest_clock.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Time Ist(const char* wall_clock) {
  return *ParseInstant(wall_clock, "Asia/Kolkata");
}

const absl::CivilDay kDay(2025, 3, 3);

TEST(DayReadLimit, WithoutAClockTheWholeDay) {
  auto limit = DayReadLimit(kDay, BacktestClock());
  ASSERT_TRUE(limit.ok()) << limit.status();
  EXPECT_EQ(*limit, Ist("2025-03-04T00:00:00") - absl::Microseconds(1));
}

TEST(DayReadLimit, AClockInsideTheDayCutsJustBeforeIt) {
  auto limit = DayReadLimit(kDay, BacktestClock(Ist("2025-03-03T11:30:00")));
  ASSERT_TRUE(limit.ok()) << limit.status();
  EXPECT_EQ(*limit, Ist("2025-03-03T11:30:00") - absl::Microseconds(1));
}

TEST(DayReadLimit, AClockOnALaterDayLeavesTheWholeDay) {
  auto limit = DayReadLimit(kDay, BacktestClock(Ist("2025-03-05T09:15:00")));
  ASSERT_TRUE(limit.ok()) << limit.status();
  EXPECT_EQ(*limit, Ist("2025-03-04T00:00:00") - absl::Microseconds(1));
}

TEST(DayReadLimit, ADayStartingAtOrAfterTheClockIsTheFuture) {
  for (const char* clock : {"2025-03-03T00:00:00", "2025-03-02T23:59:59"}) {
    auto limit = DayReadLimit(kDay, BacktestClock(Ist(clock)));
    EXPECT_EQ(limit.status().code(), absl::StatusCode::kPermissionDenied)
        << clock;
    EXPECT_NE(limit.status().message().find("date"), absl::string_view::npos)
        << limit.status();
  }
}

TEST(DayReadLimit, AClockJustAfterMidnightSeesOnlyThatInstant) {
  const absl::Time clock = Ist("2025-03-03T00:00:00") + absl::Microseconds(1);
  auto limit = DayReadLimit(kDay, BacktestClock(clock));
  ASSERT_TRUE(limit.ok()) << limit.status();
  EXPECT_EQ(*limit, Ist("2025-03-03T00:00:00"));
}

TEST(SessionReadWindow, TheWholeSessionWhenTheLimitIsAfterIt) {
  const TimeWindow window = SessionReadWindow(
      kDay, Ist("2025-03-04T00:00:00") - absl::Microseconds(1));
  EXPECT_EQ(window.start, Ist("2025-03-03T09:15:00"));
  EXPECT_EQ(window.end, Ist("2025-03-03T15:30:00"));
  EXPECT_FALSE(window.empty());
}

TEST(SessionReadWindow, CutJustAfterTheLimitInsideTheSession) {
  const absl::Time limit = Ist("2025-03-03T11:30:00") - absl::Microseconds(1);
  const TimeWindow window = SessionReadWindow(kDay, limit);
  EXPECT_EQ(window.start, Ist("2025-03-03T09:15:00"));
  EXPECT_EQ(window.end, Ist("2025-03-03T11:30:00"));
}

TEST(SessionReadWindow, EmptyWhenTheLimitIsBeforeTheOpen) {
  EXPECT_TRUE(SessionReadWindow(kDay, Ist("2025-03-03T09:00:00")).empty());
  EXPECT_TRUE(SessionReadWindow(
                  kDay, Ist("2025-03-03T09:15:00") - absl::Microseconds(1))
                  .empty());
}

}  // namespace
}  // namespace mdc::domain
