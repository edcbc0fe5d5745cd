// The failed-token throttle's rule: a locked address's unknown tokens wait,
// its tokens in use never do, and one lookup per interval still goes
// through, so a valid token the server has not seen gets in.
#include "domain/token_throttle.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace mdc::domain {
namespace {

const absl::Time kStart =
    absl::FromUnixSeconds(1'767'000'000);  // :00 of a minute

bool Refused(TokenThrottleState& state, absl::string_view address,
             absl::string_view token, absl::Time now) {
  return state.Refuse(address, token, now) > now;
}

TEST(TokenThrottle, NothingIsRefusedBelowTheLimit) {
  TokenThrottleState state;
  state.NoteFailures("10.0.0.1", kMaxFailedTokensPerMinute - 1, kStart);
  EXPECT_FALSE(Refused(state, "10.0.0.1", "guess", kStart));
  EXPECT_EQ(state.locked_addresses(), 0u);
}

TEST(TokenThrottle, ALockedAddressWaitsForTheNextProbe) {
  TokenThrottleState state;
  const absl::Time at = kStart + absl::Seconds(10);
  state.NoteFailures("10.0.0.1", kMaxFailedTokensPerMinute, at);
  const absl::Time until = state.Refuse("10.0.0.1", "guess", at);
  EXPECT_EQ(until, at + kLockedProbeInterval);
  // Another address is not affected.
  EXPECT_FALSE(Refused(state, "10.0.0.2", "guess", at));
  // The probe: one request per interval is looked up...
  const absl::Time later = at + kLockedProbeInterval;
  EXPECT_FALSE(Refused(state, "10.0.0.1", "valid-but-unseen", later));
  // ...and only one.
  EXPECT_TRUE(Refused(state, "10.0.0.1", "guess", later));
  EXPECT_TRUE(Refused(state, "10.0.0.1", "guess", later + absl::Seconds(4)));
}

TEST(TokenThrottle, TheLockEndsWithTheMinute) {
  TokenThrottleState state;
  const absl::Time at = kStart + absl::Seconds(58);
  state.NoteFailures("10.0.0.1", kMaxFailedTokensPerMinute + 5, at);
  // The retry delay never points past the minute.
  EXPECT_EQ(state.Refuse("10.0.0.1", "guess", at), kStart + absl::Minutes(1));
  EXPECT_FALSE(Refused(state, "10.0.0.1", "guess", kStart + absl::Minutes(1)));
}

TEST(TokenThrottle, TokensInUseAreNeverRefused) {
  TokenThrottleState state;
  state.NoteValid("collector", kStart);
  state.NoteFailures("10.0.0.1", 1000, kStart + absl::Seconds(1));
  EXPECT_FALSE(
      Refused(state, "10.0.0.1", "collector", kStart + absl::Seconds(2)));
  EXPECT_TRUE(Refused(state, "10.0.0.1", "guess", kStart + absl::Seconds(2)));
  // A token used long ago is not exempt any more.
  TokenThrottleState old;
  old.NoteValid("stale", kStart - kValidTokenMemory);
  old.NoteFailures("10.0.0.1", 1000, kStart);
  old.Refuse("10.0.0.1", "probe", kStart + kLockedProbeInterval);
  EXPECT_TRUE(Refused(old, "10.0.0.1", "stale", kStart + absl::Seconds(6)));
}

TEST(TokenThrottle, MemoryIsBounded) {
  TokenThrottleState state(/*max_addresses=*/100, /*max_tokens=*/100);
  for (int i = 0; i < 10'000; ++i) {
    const absl::Time at = kStart + absl::Milliseconds(i);
    state.NoteFailures(absl::StrCat("10.1.", i / 256, ".", i % 256),
                       kMaxFailedTokensPerMinute, at);
    state.NoteValid(absl::StrCat("token", i), at);
    ASSERT_LE(state.locked_addresses(), 100u);
    ASSERT_LE(state.valid_tokens(), 100u);
  }
  // The newest are kept.
  EXPECT_TRUE(
      Refused(state, "10.1.39.15", "guess", kStart + absl::Seconds(10)));
}

TEST(EndOfMinute, IsTheNextMinuteBoundary) {
  EXPECT_EQ(EndOfMinute(kStart), kStart + absl::Minutes(1));
  EXPECT_EQ(EndOfMinute(kStart + absl::Seconds(59)), kStart + absl::Minutes(1));
}

}  // namespace
}  // namespace mdc::domain
