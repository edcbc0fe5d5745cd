#include "domain/outcomes.h"

#include <gtest/gtest.h>

#include <vector>

#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// An instant on 2025-03-03 (a Monday) in IST.
absl::Time Ist(int hour, int minute, int second = 0) {
  return absl::FromCivil(absl::CivilSecond(2025, 3, 3, hour, minute, second),
                         ExchangeZone());
}

// A hand-built candle day: one bar per (hour, minute, high, low).
struct Bar {
  int hour, minute;
  double high, low;
};
std::vector<MinuteBar> Day(const std::vector<Bar>& bars) {
  std::vector<MinuteBar> out;
  for (const Bar& b : bars)
    out.push_back({Ist(b.hour, b.minute), b.high, b.low});
  return out;
}

OutcomeRequest Trade(absl::Time t, double entry, double target, double stop,
                     bool max_gain = false) {
  return OutcomeRequest{t, entry, target, stop, max_gain};
}

TEST(PriceLevels, PercentagesGiveExactDecimalPrices) {
  EXPECT_EQ(PriceAbove(100, 5), 105);
  EXPECT_EQ(PriceBelow(100, 2), 98);
  EXPECT_EQ(PriceAbove(123.45, 1.5), 125.30175);
  EXPECT_EQ(PriceBelow(250, 0), 250);
  EXPECT_EQ(PriceBelow(250, 100), 0);
}

TEST(ComputeOutcome, TargetFirst) {
  const auto bars = Day({{10, 0, 101, 99.5},  // entry minute: ignored
                         {10, 1, 102, 99.0},
                         {10, 2, 105.0, 100.0},  // target touched exactly
                         {10, 3, 106, 90}});     // stop later: irrelevant
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0, 30), 100, 105, 98, true), bars);
  EXPECT_EQ(o.target_price(), 105);
  EXPECT_EQ(o.stop_loss_price(), 98);
  ASSERT_TRUE(o.has_target_achieved());
  EXPECT_TRUE(o.target_achieved());
  ASSERT_TRUE(o.has_stop_loss_hit());
  EXPECT_FALSE(o.stop_loss_hit());
  EXPECT_EQ(FromTimestamp(o.target_time()), Ist(10, 2));
  EXPECT_EQ(o.minutes_to_target(), 2);
  EXPECT_FALSE(o.has_stop_loss_time());
  EXPECT_FALSE(o.has_minutes_to_stop_loss());
  EXPECT_FALSE(o.has_max_gain_percentage());
}

TEST(ComputeOutcome, StopFirst) {
  const auto bars = Day({{10, 1, 101, 99.0},
                         {10, 4, 100.5, 97.9},  // stop
                         {10, 5, 110, 99}});    // target later: irrelevant
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98, true), bars);
  EXPECT_FALSE(o.target_achieved());
  EXPECT_TRUE(o.stop_loss_hit());
  EXPECT_EQ(FromTimestamp(o.stop_loss_time()), Ist(10, 4));
  EXPECT_EQ(o.minutes_to_stop_loss(), 4);
  EXPECT_FALSE(o.has_target_time());
  EXPECT_FALSE(o.has_minutes_to_target());
  // The best high until the trade ended, the stop bar included.
  ASSERT_TRUE(o.has_max_gain_percentage());
  EXPECT_EQ(o.max_gain_percentage(), 1.0);
}

TEST(ComputeOutcome, BothInOneCandleCountsAsStop) {
  const auto bars = Day({{10, 1, 101, 99}, {10, 2, 106, 97}});
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98), bars);
  EXPECT_FALSE(o.target_achieved());
  EXPECT_TRUE(o.stop_loss_hit());
  EXPECT_EQ(FromTimestamp(o.stop_loss_time()), Ist(10, 2));
  EXPECT_EQ(o.minutes_to_stop_loss(), 2);
  EXPECT_FALSE(o.has_target_time());
  // Shortlist outcomes (no max gain requested) never report it.
  EXPECT_FALSE(o.has_max_gain_percentage());
}

TEST(ComputeOutcome, NeitherReportsMaxGainWithTwoDecimals) {
  const auto bars =
      Day({{10, 1, 101.234, 99}, {11, 0, 103.456, 98.5}, {15, 29, 102, 99}});
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98, true), bars);
  ASSERT_TRUE(o.has_target_achieved());
  EXPECT_FALSE(o.target_achieved());
  ASSERT_TRUE(o.has_stop_loss_hit());
  EXPECT_FALSE(o.stop_loss_hit());
  EXPECT_FALSE(o.has_target_time());
  EXPECT_FALSE(o.has_stop_loss_time());
  EXPECT_FALSE(o.has_minutes_to_target());
  EXPECT_FALSE(o.has_minutes_to_stop_loss());
  EXPECT_EQ(o.max_gain_percentage(), 3.46);
}

TEST(ComputeOutcome, MaxGainMayBeNegative) {
  const auto bars = Day({{10, 1, 99.5, 99}});
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98, true), bars);
  EXPECT_EQ(o.max_gain_percentage(), -0.5);
}

TEST(ComputeOutcome, NoCandlesGivesOnlyThePrices) {
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98, true), {});
  EXPECT_EQ(o.target_price(), 105);
  EXPECT_EQ(o.stop_loss_price(), 98);
  EXPECT_FALSE(o.has_target_achieved());
  EXPECT_FALSE(o.has_stop_loss_hit());
  EXPECT_FALSE(o.has_target_time());
  EXPECT_FALSE(o.has_stop_loss_time());
  EXPECT_FALSE(o.has_minutes_to_target());
  EXPECT_FALSE(o.has_minutes_to_stop_loss());
  EXPECT_FALSE(o.has_max_gain_percentage());
}

TEST(ComputeOutcome, CandlesOfTheEntryMinuteAndBeforeDoNotCount) {
  const auto bars = Day({{9, 59, 110, 90}, {10, 0, 110, 90}});
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0, 59), 100, 105, 98, true), bars);
  EXPECT_FALSE(o.has_target_achieved());
  EXPECT_FALSE(o.has_max_gain_percentage());
}

TEST(ComputeOutcome, OnlyTheEntrysSessionCounts) {
  // Before the open, after the close, and on the next day.
  std::vector<MinuteBar> bars = Day({{9, 14, 110, 99}, {15, 30, 110, 99}});
  bars.push_back(
      {absl::FromCivil(absl::CivilSecond(2025, 3, 4, 9, 20, 0), ExchangeZone()),
       110, 99});
  const v1::TradeOutcome early =
      ComputeOutcome(Trade(Ist(9, 0), 100, 105, 98), bars);
  EXPECT_FALSE(early.has_target_achieved());

  bars.push_back({Ist(9, 15), 106, 99});
  std::sort(
      bars.begin(), bars.end(),
      [](const MinuteBar& a, const MinuteBar& b) { return a.start < b.start; });
  const v1::TradeOutcome pre_open =
      ComputeOutcome(Trade(Ist(9, 0), 100, 105, 98), bars);
  EXPECT_TRUE(pre_open.target_achieved());
  EXPECT_EQ(FromTimestamp(pre_open.target_time()), Ist(9, 15));
  EXPECT_EQ(pre_open.minutes_to_target(), 15);
}

TEST(ComputeOutcome, StopTouchedExactly) {
  const auto bars = Day({{10, 7, 100, 98}});
  const v1::TradeOutcome o =
      ComputeOutcome(Trade(Ist(10, 0), 100, 105, 98), bars);
  EXPECT_TRUE(o.stop_loss_hit());
  EXPECT_EQ(o.minutes_to_stop_loss(), 7);
}

}  // namespace
}  // namespace mdc::domain
