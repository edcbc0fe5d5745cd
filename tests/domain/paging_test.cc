#include "domain/paging.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

TEST(PageSize, DefaultsAndCaps) {
  EXPECT_EQ(*PageSize(0), 100);
  EXPECT_EQ(*PageSize(1), 1);
  EXPECT_EQ(*PageSize(1000), 1000);
  EXPECT_EQ(*PageSize(5000), 1000);
  EXPECT_EQ(PageSize(-1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(PageToken, RoundTripsToTheMicrosecond) {
  const absl::Time t = absl::FromUnixMicros(1740976200123456);
  auto decoded = DecodePageToken(EncodePageToken(t));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_TRUE(decoded->has_value());
  EXPECT_EQ(**decoded, t);
}

TEST(PageToken, EmptyMeansFirstPage) {
  auto decoded = DecodePageToken("");
  ASSERT_TRUE(decoded.ok());
  EXPECT_FALSE(decoded->has_value());
}

TEST(PageToken, RejectsTokensItDidNotIssue) {
  for (const char* bad :
       {"abc", "!!!!", "dDE6eHl6", "dDE6LTU", "aGVsbG8gd29ybGQ"}) {
    EXPECT_EQ(DecodePageToken(bad).status().code(),
              absl::StatusCode::kInvalidArgument)
        << bad;
  }
}

}  // namespace
}  // namespace mdc::domain
