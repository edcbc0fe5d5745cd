// The 1-minute bars outcomes walk: built from a symbol-day's prices, and
// built once per symbol-day however often a page asks for them.
#include "domain/minute_bars.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Time Ist(const char* wall_clock) {
  return *ParseInstant(wall_clock, "Asia/Kolkata");
}

PricePoint Price(const char* wall_clock, std::optional<double> last_price) {
  return PricePoint{Ist(wall_clock), last_price, std::nullopt};
}

const absl::CivilDay kMonday(2025, 3, 3);

TEST(MinuteBarsOf, OneBarPerPricedMinuteWithItsHighAndLow) {
  const std::vector<MinuteBar> bars = MinuteBarsOf(
      {Price("2025-03-03T09:15:05", 100), Price("2025-03-03T09:15:40", 103),
       Price("2025-03-03T09:15:59", 99),
       Price("2025-03-03T09:16:10", std::nullopt),  // no price
       Price("2025-03-03T09:18:00", 101.5)});
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].start, Ist("2025-03-03T09:15:00"));
  EXPECT_EQ(bars[0].high, 103);
  EXPECT_EQ(bars[0].low, 99);
  EXPECT_EQ(bars[1].start, Ist("2025-03-03T09:18:00"));
  EXPECT_EQ(bars[1].high, 101.5);
  EXPECT_EQ(bars[1].low, 101.5);
}

TEST(MinuteBarsOf, NoPricesNoBars) { EXPECT_TRUE(MinuteBarsOf({}).empty()); }

TEST(MinuteBarCache, GivesEachSymbolDayItsOwnBars) {
  MinuteBarCache cache({
      {{"INFY", kMonday}, {Price("2025-03-03T10:00:00", 1500)}},
      {{"TCS", kMonday},
       {Price("2025-03-03T10:00:00", 3500),
        Price("2025-03-03T10:01:00", 3510)}},
  });
  const std::vector<MinuteBar>& infy = cache.Of("INFY", kMonday);
  ASSERT_EQ(infy.size(), 1u);
  EXPECT_EQ(infy[0].high, 1500);
  const std::vector<MinuteBar>& tcs = cache.Of("TCS", kMonday);
  ASSERT_EQ(tcs.size(), 2u);
  EXPECT_EQ(tcs[1].start, Ist("2025-03-03T10:01:00"));
  EXPECT_EQ(tcs[1].high, 3510);
}

TEST(MinuteBarCache, AnUnknownSymbolDayHasNoBars) {
  MinuteBarCache cache(
      {{{"INFY", kMonday}, {Price("2025-03-03T10:00:00", 1)}}});
  EXPECT_TRUE(cache.Of("INFY", kMonday + 1).empty());
  EXPECT_TRUE(cache.Of("WIPRO", kMonday).empty());
}

TEST(MinuteBarCache, BuildsOnceAndKeepsEarlierAnswersValid) {
  absl::flat_hash_map<SymbolDay, std::vector<PricePoint>> prices;
  for (int i = 0; i < 50; ++i) {
    prices[{absl::StrCat("S", i), kMonday}] = {
        Price("2025-03-03T10:00:00", 100 + i)};
  }
  MinuteBarCache cache(std::move(prices));
  const std::vector<MinuteBar>& first = cache.Of("S0", kMonday);
  // Later symbol-days are inserted after `first` was handed out.
  for (int i = 1; i < 50; ++i) cache.Of(absl::StrCat("S", i), kMonday);
  EXPECT_EQ(&cache.Of("S0", kMonday), &first);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].high, 100);
  EXPECT_EQ(cache.Of("S49", kMonday)[0].high, 149);
}

}  // namespace
}  // namespace mdc::domain
