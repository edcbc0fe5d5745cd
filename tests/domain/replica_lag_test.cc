#include "domain/replica_lag.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

const absl::Time kT0 = absl::FromUnixSeconds(1'700'000'000);

absl::Time At(double seconds) { return kT0 + absl::Seconds(seconds); }

TEST(ReplicaLagTest, UnknownUntilTheStandbyIsSeenCaughtUp) {
  ReplicaLag lag(absl::Seconds(10));
  EXPECT_EQ(lag.LagAt(At(0)), absl::InfiniteDuration());
  lag.PrimaryWrote(At(0), 1000);
  lag.StandbyReplayed(999);
  EXPECT_EQ(lag.LagAt(At(1)), absl::InfiniteDuration());
  lag.StandbyReplayed(1000);
  EXPECT_EQ(lag.caught_up_to(), At(0));
  EXPECT_EQ(lag.LagAt(At(1)), absl::Seconds(1));
}

TEST(ReplicaLagTest, AnIdlePrimaryIsNoLag) {
  // No writes: the position stays, and a standby at it is current at every
  // sample, however long ago the last transaction was.
  ReplicaLag lag(absl::Seconds(10));
  for (int s = 0; s < 100; ++s) {
    lag.PrimaryWrote(At(s), 5000);
    lag.StandbyReplayed(5000);
    EXPECT_EQ(lag.LagAt(At(s)), absl::ZeroDuration()) << s;
  }
}

TEST(ReplicaLagTest, StuckReplayGrowsTheLag) {
  ReplicaLag lag(absl::Seconds(60));
  lag.PrimaryWrote(At(0), 100);
  lag.StandbyReplayed(100);
  for (int s = 1; s <= 20; ++s) {
    lag.PrimaryWrote(At(s), 100 + s);  // the primary writes on
    lag.StandbyReplayed(100);          // replay paused
    EXPECT_EQ(lag.LagAt(At(s)), absl::Seconds(s)) << s;
  }
  // Replay resumes and reaches the sample of second 15, not later ones.
  lag.StandbyReplayed(115);
  EXPECT_EQ(lag.caught_up_to(), At(15));
  EXPECT_EQ(lag.LagAt(At(20)), absl::Seconds(5));
  lag.StandbyReplayed(120);
  EXPECT_EQ(lag.LagAt(At(20)), absl::ZeroDuration());
}

TEST(ReplicaLagTest, BetweenSamplesTheStandbyCountsAsAtTheEarlierOne) {
  ReplicaLag lag(absl::Seconds(60));
  lag.PrimaryWrote(At(0), 100);
  lag.PrimaryWrote(At(1), 200);
  // Past the first sample, short of the second: a transaction committed
  // between them may be missing.
  lag.StandbyReplayed(150);
  EXPECT_EQ(lag.caught_up_to(), At(0));
}

TEST(ReplicaLagTest, NeverGoesBackWhenTheStandbyReportsLess) {
  ReplicaLag lag(absl::Seconds(60));
  lag.PrimaryWrote(At(0), 100);
  lag.PrimaryWrote(At(1), 200);
  lag.StandbyReplayed(200);
  lag.StandbyReplayed(100);
  EXPECT_EQ(lag.caught_up_to(), At(1));
}

TEST(ReplicaLagTest, ASampleOlderThanKeepIsForgottenAndTheLagStaysAboveIt) {
  ReplicaLag lag(absl::Seconds(5));
  lag.PrimaryWrote(At(0), 100);
  lag.StandbyReplayed(100);
  for (int s = 1; s <= 30; ++s) lag.PrimaryWrote(At(s), 100 + s);
  // Samples before second 25 are gone: the standby reaching second 10's
  // position still counts as caught up to second 0, more than `keep`
  // behind, which is what it is.
  lag.StandbyReplayed(110);
  EXPECT_GE(lag.LagAt(At(30)), absl::Seconds(5));
  lag.StandbyReplayed(130);
  EXPECT_EQ(lag.LagAt(At(30)), absl::ZeroDuration());
}

}  // namespace
}  // namespace mdc::domain
