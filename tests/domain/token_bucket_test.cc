// The per-developer rate limit's arithmetic (domain/token_bucket.h), driven
// by a clock the test sets: bursts, refills, retry delays, full buckets, and
// a clock that steps back.
#include "domain/token_bucket.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1'767'000'000);

// How many calls the bucket admits at `now`, taking until it refuses one.
int TakeAll(TokenBucket& bucket, absl::Time now) {
  int taken = 0;
  while (bucket.Take(now) == absl::ZeroDuration()) {
    ++taken;
    if (taken > 1'000'000) break;  // a broken bucket must not hang the test
  }
  return taken;
}

TEST(MakeRateLimit, BurstDefaultsToOneSecondsWorth) {
  EXPECT_EQ(MakeRateLimit(5, 0).burst, 5);
  EXPECT_EQ(MakeRateLimit(2.5, 0).burst, 3);
  EXPECT_EQ(MakeRateLimit(0.2, 0).burst, 1);
  EXPECT_EQ(MakeRateLimit(5, 12).burst, 12);
  EXPECT_EQ(MakeRateLimit(5, 12).per_second, 5);
  EXPECT_FALSE(MakeRateLimit(0, 0).enabled());
  EXPECT_TRUE(MakeRateLimit(0.2, 0).enabled());
}

TEST(TokenBucket, ANewBucketAdmitsABurstThenRefuses) {
  TokenBucket bucket(MakeRateLimit(5, 10));
  EXPECT_EQ(TakeAll(bucket, kStart), 10);
  // Refused: the next token comes back one interval (1/5 s) later.
  EXPECT_EQ(bucket.Take(kStart), absl::Milliseconds(200));
  // A refusal takes nothing: asking again gives the same answer.
  EXPECT_EQ(bucket.Take(kStart), absl::Milliseconds(200));
}

TEST(TokenBucket, RetryDelayShrinksAsTimePasses) {
  TokenBucket bucket(MakeRateLimit(2, 1));
  EXPECT_EQ(bucket.Take(kStart), absl::ZeroDuration());
  EXPECT_EQ(bucket.Take(kStart), absl::Milliseconds(500));
  EXPECT_EQ(bucket.Take(kStart + absl::Milliseconds(300)),
            absl::Milliseconds(200));
  // At the announced instant the call is admitted.
  EXPECT_EQ(bucket.Take(kStart + absl::Milliseconds(500)),
            absl::ZeroDuration());
}

TEST(TokenBucket, RefillsAtTheRateUpToTheBurst) {
  TokenBucket bucket(MakeRateLimit(10, 5));
  EXPECT_EQ(TakeAll(bucket, kStart), 5);
  // 300 ms give 3 tokens back.
  EXPECT_EQ(TakeAll(bucket, kStart + absl::Milliseconds(300)), 3);
  // A long pause refills the bucket to its burst, never more.
  EXPECT_EQ(TakeAll(bucket, kStart + absl::Hours(1)), 5);
}

TEST(TokenBucket, SteadyCallsAtTheRateAreAllAdmitted) {
  TokenBucket bucket(MakeRateLimit(4, 1));
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(bucket.Take(kStart + i * absl::Milliseconds(250)),
              absl::ZeroDuration())
        << "call " << i;
  }
  // One more in the same interval is refused.
  EXPECT_GT(bucket.Take(kStart + 999 * absl::Milliseconds(250)),
            absl::ZeroDuration());
}

TEST(TokenBucket, FractionalRates) {
  // One call every 4 s.
  TokenBucket bucket(MakeRateLimit(0.25, 0));
  EXPECT_EQ(bucket.Take(kStart), absl::ZeroDuration());
  EXPECT_EQ(bucket.Take(kStart + absl::Seconds(1)), absl::Seconds(3));
  EXPECT_EQ(bucket.Take(kStart + absl::Seconds(4)), absl::ZeroDuration());
}

TEST(TokenBucket, IsFullOnceEveryTokenCameBack) {
  TokenBucket bucket(MakeRateLimit(10, 3));
  EXPECT_TRUE(bucket.IsFullAt(kStart));
  ASSERT_EQ(bucket.Take(kStart), absl::ZeroDuration());
  ASSERT_EQ(bucket.Take(kStart), absl::ZeroDuration());
  EXPECT_FALSE(bucket.IsFullAt(kStart));
  EXPECT_FALSE(bucket.IsFullAt(kStart + absl::Milliseconds(199)));
  EXPECT_TRUE(bucket.IsFullAt(kStart + absl::Milliseconds(200)));
}

TEST(TokenBucket, AClockSteppedBackGivesNothingBack) {
  TokenBucket bucket(MakeRateLimit(1, 2));
  EXPECT_EQ(TakeAll(bucket, kStart), 2);
  // Earlier than before: no tokens came back, the delay is counted from the
  // earlier instant, and nothing breaks.
  const absl::Duration delay = bucket.Take(kStart - absl::Seconds(10));
  EXPECT_EQ(delay, absl::Seconds(11));
  EXPECT_EQ(bucket.Take(kStart + absl::Seconds(1)), absl::ZeroDuration());
}

}  // namespace
}  // namespace mdc::domain
