// Which days a compaction may take: closed trading days only.
#include "domain/compaction.h"

#include <gtest/gtest.h>

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
