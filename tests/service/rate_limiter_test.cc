// The per-developer rate limiter (service/calls/rate_limiter.h) on a clock
// the test sets: one bucket per key, the refusal a client sees
// (RESOURCE_EXHAUSTED, reason RATE_LIMITED, a retry delay), idle buckets
// forgotten, and the table's bound.
#include "service/calls/rate_limiter.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "domain/error_reason.h"
#include "google/rpc/error_details.pb.h"

namespace mdc {
namespace {

// A clock that moves only when the test says so.
struct FakeClock {
  absl::Time now = absl::FromUnixSeconds(1'767'000'000);
  RateLimiter::Clock Get() {
    return [this] { return now; };
  }
};

TEST(RateLimiter, EachKeyHasItsOwnBucket) {
  FakeClock clock;
  RateLimiter limiter("reads", domain::MakeRateLimit(2, 3), clock.Get());
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.Admit("alice").ok()) << i;
  }
  EXPECT_FALSE(limiter.Admit("alice").ok());
  // Bob is not affected by Alice's calls.
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(limiter.Admit("bob").ok()) << i;
  }
  // Half a second gives Alice one call back.
  clock.now += absl::Milliseconds(500);
  EXPECT_TRUE(limiter.Admit("alice").ok());
  EXPECT_FALSE(limiter.Admit("alice").ok());
}

TEST(RateLimiter, ARefusalSaysWhyAndWhenToRetry) {
  FakeClock clock;
  RateLimiter limiter("writes", domain::MakeRateLimit(4, 1), clock.Get());
  ASSERT_TRUE(limiter.Admit("k").ok());
  clock.now += absl::Milliseconds(100);
  const absl::Status refused = limiter.Admit("k");
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(domain::ReasonOf(refused), "RATE_LIMITED");
  EXPECT_EQ(domain::RetryDelayOf(refused), absl::Milliseconds(150));
  EXPECT_NE(refused.message().find("too many writes"), std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("4 per second"), std::string::npos)
      << refused.message();
  const auto rpc = domain::ToRpcStatus(refused);
  google::rpc::ErrorInfo info;
  ASSERT_EQ(rpc.details_size(), 2);
  ASSERT_TRUE(rpc.details(0).UnpackTo(&info));
  EXPECT_EQ(info.metadata().at("limit"), "writes");
}

TEST(RateLimiter, OffAdmitsEverythingAndKeepsNothing) {
  FakeClock clock;
  RateLimiter limiter("reads", domain::MakeRateLimit(0, 0), clock.Get());
  EXPECT_FALSE(limiter.enabled());
  for (int i = 0; i < 10'000; ++i) ASSERT_TRUE(limiter.Admit("k").ok());
  EXPECT_EQ(limiter.size(), 0u);
}

TEST(RateLimiter, ForgetsIdleBuckets) {
  FakeClock clock;
  RateLimiter limiter("reads", domain::MakeRateLimit(10, 5), clock.Get());
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(limiter.Admit(absl::StrCat("key", i)).ok());
  }
  EXPECT_EQ(limiter.size(), 100u);
  // A tenth of a second later every bucket is full again; the next sweep
  // (at most a second later) forgets them all but the caller's.
  clock.now += absl::Seconds(2);
  ASSERT_TRUE(limiter.Admit("key0").ok());
  EXPECT_EQ(limiter.size(), 1u);
}

TEST(RateLimiter, ABusyBucketSurvivesTheSweep) {
  FakeClock clock;
  RateLimiter limiter("reads", domain::MakeRateLimit(1, 2), clock.Get());
  ASSERT_TRUE(limiter.Admit("busy").ok());
  ASSERT_TRUE(limiter.Admit("busy").ok());
  ASSERT_FALSE(limiter.Admit("busy").ok());
  clock.now += absl::Milliseconds(1500);     // one token back, not two
  ASSERT_TRUE(limiter.Admit("other").ok());  // sweeps
  // Still remembered: one token came back, the second is refused.
  EXPECT_TRUE(limiter.Admit("busy").ok());
  EXPECT_FALSE(limiter.Admit("busy").ok());
}

TEST(RateLimiter, HoldsAtMostMaxKeysAndLetsNewcomersThroughWhenFull) {
  FakeClock clock;
  RateLimiter limiter("reads", domain::MakeRateLimit(1, 1), clock.Get(),
                      /*max_keys=*/10);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(limiter.Admit(absl::StrCat("key", i)).ok());
  }
  // Every bucket is busy: a new key is admitted, uncounted.
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(limiter.Admit("new").ok());
  EXPECT_EQ(limiter.size(), 10u);
  // Known keys stay limited meanwhile.
  EXPECT_FALSE(limiter.Admit("key3").ok());
  // Once the others are idle there is room again and "new" is counted.
  clock.now += absl::Seconds(2);
  EXPECT_TRUE(limiter.Admit("new").ok());
  EXPECT_FALSE(limiter.Admit("new").ok());
  EXPECT_LE(limiter.size(), 10u);
}

}  // namespace
}  // namespace mdc
