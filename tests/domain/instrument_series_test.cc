// A renamed instrument's records are read as one series: each symbol over
// the days it named the instrument.
#include "domain/instrument_series.h"

#include <gtest/gtest.h>

#include "domain/time.h"

namespace mdc::domain {
namespace {

const absl::CivilDay kListed(2024, 1, 1);
const absl::CivilDay kRenamed(2024, 8, 14);

SymbolHistory Renamed() { return {{"OLDCO", kListed}, {"NEWCO", kRenamed}}; }

TEST(InstrumentSeries, ARangeAcrossTheRenameReadsBothSymbolsBackToBack) {
  const absl::Time start = DayStart(absl::CivilDay(2024, 8, 12));
  const absl::Time end = DayStart(absl::CivilDay(2024, 8, 17));
  const std::vector<SeriesSegment> expected = {
      {"OLDCO", start, DayStart(kRenamed)}, {"NEWCO", DayStart(kRenamed), end}};
  EXPECT_EQ(SegmentsOf(Renamed(), start, end), expected);
}

TEST(InstrumentSeries, ARangeOnOneSideReadsOneSymbol) {
  const absl::Time before_start = DayStart(absl::CivilDay(2024, 8, 1));
  const absl::Time before_end = DayStart(kRenamed);  // exclusive: OLDCO only
  const std::vector<SeriesSegment> before = {
      {"OLDCO", before_start, before_end}};
  EXPECT_EQ(SegmentsOf(Renamed(), before_start, before_end), before);

  const absl::Time after_start = DayStart(kRenamed);
  const absl::Time after_end = DayStart(absl::CivilDay(2024, 9, 1));
  const std::vector<SeriesSegment> after = {{"NEWCO", after_start, after_end}};
  EXPECT_EQ(SegmentsOf(Renamed(), after_start, after_end), after);
}

TEST(InstrumentSeries, NothingBeforeTheFirstPeriodNorInAnEmptyRange) {
  EXPECT_TRUE(SegmentsOf(Renamed(), DayStart(absl::CivilDay(2023, 1, 1)),
                         DayStart(kListed))
                  .empty());
  const absl::Time t = DayStart(kRenamed);
  EXPECT_TRUE(SegmentsOf(Renamed(), t, t).empty());
  EXPECT_TRUE(SingleSymbolSegment("X", t, t).empty());
  const std::vector<SeriesSegment> single = {{"X", t, t + absl::Hours(1)}};
  EXPECT_EQ(SingleSymbolSegment("X", t, t + absl::Hours(1)), single);
}

TEST(InstrumentSeries, AChainOfRenamesGivesEachSymbolItsDays) {
  const SymbolHistory chain = {
      {"A", kListed}, {"B", kRenamed}, {"C", absl::CivilDay(2024, 9, 2)}};
  const absl::Time start = DayStart(kListed);
  const absl::Time end = absl::InfiniteFuture();
  const auto segments = SegmentsOf(chain, start, end);
  ASSERT_EQ(segments.size(), 3u);
  EXPECT_EQ(segments[0].symbol, "A");
  EXPECT_EQ(segments[1].symbol, "B");
  EXPECT_EQ(segments[1].end, DayStart(absl::CivilDay(2024, 9, 2)));
  EXPECT_EQ(segments[2].symbol, "C");
  EXPECT_EQ(segments[2].end, end);
}

TEST(InstrumentSeries, SymbolsOnADayFollowTheMasterAndKeepUnknownOnes) {
  const std::vector<std::string> asked = {"OLDCO", "NEWCO", "OTHER"};
  const std::vector<std::optional<SymbolHistory>> histories = {
      Renamed(), Renamed(), std::nullopt};
  EXPECT_EQ(SymbolsOnDay(asked, histories, absl::CivilDay(2024, 8, 13)),
            (std::vector<std::string>{"OLDCO", "OTHER"}));
  EXPECT_EQ(SymbolsOnDay(asked, histories, kRenamed),
            (std::vector<std::string>{"NEWCO", "OTHER"}));
  EXPECT_EQ(SymbolsOnDay(asked, histories, absl::CivilDay(2023, 6, 1)),
            (std::vector<std::string>{"OTHER"}));
}

}  // namespace
}  // namespace mdc::domain
