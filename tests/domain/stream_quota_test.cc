// domain/stream_quota.h: the per-developer caps on open streams.
#include "domain/stream_quota.h"

#include <gtest/gtest.h>

#include "domain/error_reason.h"

namespace mdc::domain {
namespace {

StreamLimits Limits(int exports, int replays, int watches) {
  StreamLimits limits;
  limits.exports = exports;
  limits.replays = replays;
  limits.watches = watches;
  return limits;
}

TEST(StreamQuota, RefusesTheStreamPastTheCapOfItsKindAndDeveloper) {
  StreamQuota quota(Limits(2, 1, 3));
  ASSERT_TRUE(quota.Take(StreamKind::kExport, 7).ok());
  ASSERT_TRUE(quota.Take(StreamKind::kExport, 7).ok());
  const absl::Status third = quota.Take(StreamKind::kExport, 7);
  EXPECT_EQ(third.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ReasonOf(third), "TOO_MANY_STREAMS");
  EXPECT_EQ(RetryDelayOf(third), kStreamRetryDelay);
  EXPECT_NE(third.message().find("already has 2 exports open on this server"),
            std::string::npos)
      << third;
  EXPECT_NE(third.message().find("MDC_MAX_EXPORTS_PER_DEVELOPER"),
            std::string::npos);
  EXPECT_EQ(quota.Open(StreamKind::kExport, 7), 2)
      << "a refusal counts nothing";
  // Other developers and other kinds have places of their own.
  EXPECT_TRUE(quota.Take(StreamKind::kExport, 8).ok());
  EXPECT_TRUE(quota.Take(StreamKind::kReplay, 7).ok());
  EXPECT_FALSE(quota.Take(StreamKind::kReplay, 7).ok());
  // An ended stream frees its place.
  quota.Release(StreamKind::kExport, 7);
  EXPECT_EQ(quota.Open(StreamKind::kExport, 7), 1);
  EXPECT_TRUE(quota.Take(StreamKind::kExport, 7).ok());
}

TEST(StreamQuota, ZeroMeansNoCap) {
  StreamQuota quota(Limits(0, 0, 0));
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(quota.Take(StreamKind::kWatch, 1).ok());
  }
  EXPECT_EQ(quota.Open(StreamKind::kWatch, 1), 1000);
}

TEST(StreamQuota, ReleasingWhatWasNotTakenChangesNothing) {
  StreamQuota quota(Limits(1, 1, 1));
  quota.Release(StreamKind::kWatch, 3);
  EXPECT_EQ(quota.Open(StreamKind::kWatch, 3), 0);
  EXPECT_TRUE(quota.Take(StreamKind::kWatch, 3).ok());
  EXPECT_FALSE(quota.Take(StreamKind::kWatch, 3).ok());
}

}  // namespace
}  // namespace mdc::domain
