// The coverage view's rules: session minutes, runs of minutes with data,
// and how tallies of collector writes merge.
#include "domain/coverage.h"

#include <gtest/gtest.h>

#include <vector>

#include "domain/time.h"

namespace mdc::domain {
namespace {

TEST(SessionMinutes, TheRegularSessionHas375) {
  EXPECT_EQ(SessionMinutes(absl::CivilDay(2025, 1, 2)), 375);
}

TEST(MinuteRanges, RunsOfOnes) {
  EXPECT_EQ(MinuteRanges("0110011"),
            (std::vector<MinuteRange>{{1, 2}, {5, 6}}));
  EXPECT_EQ(MinuteRanges("1"), (std::vector<MinuteRange>{{0, 0}}));
  EXPECT_EQ(MinuteRanges("1111"), (std::vector<MinuteRange>{{0, 3}}));
  EXPECT_EQ(MinuteRanges("10001"), (std::vector<MinuteRange>{{0, 0}, {4, 4}}));
}

TEST(MinuteRanges, NoOnesNoRanges) {
  EXPECT_TRUE(MinuteRanges("").empty());
  EXPECT_TRUE(MinuteRanges("0000").empty());
}

TEST(CoveredMinutes, CountsBothEnds) {
  EXPECT_EQ(CoveredMinutes({{1, 2}, {5, 6}, {9, 9}}), 5);
  EXPECT_EQ(CoveredMinutes({}), 0);
}

TEST(MergeTally, KeepsTheLaterTimesAndAddsTheRecords) {
  const absl::Time t0 = absl::FromUnixSeconds(1'700'000'000);
  WriteTally into{7,
                  "asha",
                  RecordKind::kQuote,
                  absl::CivilDay(2025, 1, 2),
                  t0,
                  t0 + absl::Minutes(5),
                  10};
  const WriteTally more{7,
                        "asha",
                        RecordKind::kQuote,
                        absl::CivilDay(2025, 1, 2),
                        t0 + absl::Seconds(3),
                        t0 + absl::Minutes(1),
                        4};
  MergeTally(into, more);
  EXPECT_EQ(into.last_written, t0 + absl::Seconds(3));
  EXPECT_EQ(into.last_observed, t0 + absl::Minutes(5));  // not earlier
  EXPECT_EQ(into.records, 14);
}

TEST(RecordKindName, TheApisNames) {
  EXPECT_EQ(RecordKindName(RecordKind::kQuote), "quotes");
  EXPECT_EQ(RecordKindName(RecordKind::kNifty), "nifty");
  EXPECT_EQ(RecordKindName(RecordKind::kShortlist), "shortlists");
}

}  // namespace
}  // namespace mdc::domain
