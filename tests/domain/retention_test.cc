#include "domain/retention.h"

#include <gtest/gtest.h>

#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Time Ist(int y, int m, int d, int hh, int mm) {
  return absl::FromCivil(absl::CivilSecond(y, m, d, hh, mm, 0), ExchangeZone());
}

TEST(RetentionStartTest, KeepsTheCurrentMonthAndTheWholeMonthsBefore) {
  EXPECT_EQ(RetentionStart(Ist(2026, 11, 25, 10, 0), 1),
            absl::CivilDay(2026, 10, 1));
  EXPECT_EQ(RetentionStart(Ist(2026, 11, 25, 10, 0), 3),
            absl::CivilDay(2026, 8, 1));
}

TEST(RetentionStartTest, CrossesYears) {
  EXPECT_EQ(RetentionStart(Ist(2026, 2, 1, 0, 0), 2),
            absl::CivilDay(2025, 12, 1));
  EXPECT_EQ(RetentionStart(Ist(2026, 1, 31, 23, 59), 13),
            absl::CivilDay(2024, 12, 1));
}

// The month is the exchange's: 1 December 00:10 IST is still 30 November in
// UTC, and already December's trading day.
TEST(RetentionStartTest, UsesTheExchangeMonthNotUtc) {
  EXPECT_EQ(RetentionStart(Ist(2026, 12, 1, 0, 10), 1),
            absl::CivilDay(2026, 11, 1));
  EXPECT_EQ(RetentionStart(Ist(2026, 11, 30, 23, 50), 1),
            absl::CivilDay(2026, 10, 1));
}

}  // namespace
}  // namespace mdc::domain
