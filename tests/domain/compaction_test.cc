// Which days a compaction may take: closed trading days only.
#include "domain/compaction.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "domain/quote_batch_codec.h"
#include "domain/time.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

// 2026-03-10 10:00 in Asia/Kolkata.
absl::Time Now() {
  return absl::FromCivil(absl::CivilSecond(2026, 3, 10, 10, 0, 0),
                         ExchangeZone());
}

TEST(ParseCompactThrough, AcceptsAClosedDay) {
  EXPECT_EQ(*ParseCompactThrough("2026-03-09", Now(), "through"),
            absl::CivilDay(2026, 3, 9));
  EXPECT_EQ(*ParseCompactThrough("1999-01-01", Now(), "through"),
            absl::CivilDay(1999, 1, 1));
}

TEST(ParseCompactThrough, RejectsTodayAndTheFutureNamingTheField) {
  for (const char* open : {"2026-03-10", "2026-03-11", "2999-12-31"}) {
    auto parsed = ParseCompactThrough(open, Now(), "through");
    ASSERT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument)
        << open;
    const auto violations = testing::FieldViolations(parsed.status());
    ASSERT_EQ(violations.size(), 1u);
    EXPECT_EQ(violations[0].first, "through");
    EXPECT_NE(violations[0].second.find("closed trading day"),
              std::string::npos);
  }
}

TEST(ParseCompactThrough, RejectsMissingAndMalformedDates) {
  for (const char* bad :
       {"", "2026-3-9", "2026-02-30", "yesterday", "2026-03-09T00:00:00"}) {
    auto parsed = ParseCompactThrough(bad, Now(), "--through");
    ASSERT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
    EXPECT_EQ(testing::ViolatedFields(parsed.status()),
              std::vector<std::string>{"--through"});
  }
}

TEST(AutoCompactThrough, IsOffAtZeroAndCountsBackFromToday) {
  EXPECT_FALSE(AutoCompactThrough(Now(), 0).has_value());
  EXPECT_EQ(*AutoCompactThrough(Now(), 1), absl::CivilDay(2026, 3, 9));
  EXPECT_EQ(*AutoCompactThrough(Now(), 10), absl::CivilDay(2026, 2, 28));
}

}  // namespace
}  // namespace mdc::domain

namespace mdc::domain {
namespace {

using Bounds = std::vector<std::pair<size_t, size_t>>;

TEST(BatchBounds, CutsAtTheMostQuotesAndAtANewSlotOnceFullEnough) {
  EXPECT_EQ(BatchBounds({}, 3, 100, 1), Bounds{});
  // One slot: only the count cuts.
  EXPECT_EQ(BatchBounds({0, 1, 2, 3, 4, 5, 6}, 3, 100, 1),
            (Bounds{{0, 3}, {3, 6}, {6, 7}}));
  // Slots [0, 100), [100, 200), ...: with one quote enough, a new batch at
  // each new slot (a gap of several slots is one cut).
  EXPECT_EQ(BatchBounds({10, 20, 99, 100, 150, 199, 250, 900}, 1000, 100, 1),
            (Bounds{{0, 3}, {3, 6}, {6, 7}, {7, 8}}));
  // With four needed: the first slot's three quotes go on into the next,
  // which then ends at 250's slot; 250 alone goes on to 900.
  EXPECT_EQ(BatchBounds({10, 20, 99, 100, 150, 199, 250, 900}, 1000, 100, 4),
            (Bounds{{0, 6}, {6, 8}}));
  // Both rules together.
  EXPECT_EQ(BatchBounds({0, 1, 2, 100, 101}, 2, 100, 1),
            (Bounds{{0, 2}, {2, 3}, {3, 5}}));
}

TEST(BatchBounds, CountsSlotsFromTheEpochOnBothSides) {
  // -1 is in the slot [-100, 0), not in [0, 100).
  EXPECT_EQ(BatchBounds({-150, -101, -100, -1, 0}, 1000, 100, 1),
            (Bounds{{0, 2}, {2, 4}, {4, 5}}));
}

TEST(BatchBounds, StockBatchesOfAQuoteASecondEndAtSlots) {
  const int64_t second = 1000 * 1000;
  std::vector<int64_t> day;  // a quote a second for twenty minutes
  const int64_t start = int64_t{1777866300} * second;  // mid-slot
  for (int i = 0; i < 1200; ++i) day.push_back(start + i * second);
  const Bounds bounds = BatchBounds(day, kMaxQuotesPerBatch, kBatchSlotMicros,
                                    kBatchSlotMinQuotes);
  // 60 to the first slot's end are too few: 180, then eight of 120, then 60.
  ASSERT_EQ(bounds.size(), 10u);
  EXPECT_EQ(bounds.front(), std::make_pair(size_t{0}, size_t{180}));
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    EXPECT_GE(bounds[i].second - bounds[i].first, kBatchSlotMinQuotes);
    EXPECT_EQ((day[bounds[i].second] / kBatchSlotMicros) -
                  (day[bounds[i].second - 1] / kBatchSlotMicros),
              1);
  }
  // A quote every 100 seconds: each in a slot of its own, so batches of
  // 120 (the decoding a page does stays bounded whatever the pace).
  std::vector<int64_t> sparse;
  for (int i = 0; i < 1500; ++i) sparse.push_back(start + i * 100 * second);
  const Bounds sparse_bounds = BatchBounds(
      sparse, kMaxQuotesPerBatch, kBatchSlotMicros, kBatchSlotMinQuotes);
  ASSERT_EQ(sparse_bounds.size(), 13u);
  EXPECT_EQ(sparse_bounds.back(), std::make_pair(size_t{1440}, size_t{1500}));
}

}  // namespace
}  // namespace mdc::domain
