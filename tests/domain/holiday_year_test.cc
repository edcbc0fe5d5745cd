// The one year rule of holiday listings (admin and developer routes alike):
// its inclusive bounds and the error it gives.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "domain/admin_requests.h"

namespace mdc::domain {
namespace {

const absl::Time kNow = absl::FromUnixSeconds(1740976200);  // 2025-03-03

TEST(ResolveYear, BoundsAreInclusive) {
  EXPECT_EQ(*ResolveYear(1900, kNow), 1900);
  EXPECT_EQ(*ResolveYear(2200, kNow), 2200);
}

TEST(ResolveYear, OutsideTheRangeIsInvalidAndSaysTheRange) {
  for (int64_t bad :
       {int64_t{1899}, int64_t{2201}, int64_t{9999}, int64_t{99999999999}}) {
    auto year = ResolveYear(bad, kNow);
    EXPECT_EQ(year.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(year.status().message(),
                testing::HasSubstr("must be a year between 1900 and 2200"))
        << bad;
  }
}

TEST(ResolveYear, AbsentIsThisYear) { EXPECT_EQ(*ResolveYear(0, kNow), 2025); }

}  // namespace
}  // namespace mdc::domain
