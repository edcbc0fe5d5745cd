// ReplicaMonitor and RoutedReads over fake probes: when replica-routed reads
// go to the replica, when they fall back to the primary, and that they come
// back. Tests wait for a state (bounded), never for a time.
#include "service/replica/replica_monitor.h"

#include <gtest/gtest.h>

#include <string>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "service/metrics/metrics.h"
#include "service/replica/routed_reads.h"

namespace mdc {
namespace {

// A primary and a standby as the probes see them.
class FakeReplication {
 public:
  void Write(int64_t bytes) {
    absl::MutexLock lock(&mu_);
    written_ += bytes;
    if (!paused_) replayed_ = written_;
  }
  void PauseReplay(bool paused) {
    absl::MutexLock lock(&mu_);
    paused_ = paused;
    if (!paused_) replayed_ = written_;
  }
  void SetReachable(bool reachable) {
    absl::MutexLock lock(&mu_);
    reachable_ = reachable;
  }
  void SetInRecovery(bool in_recovery) {
    absl::MutexLock lock(&mu_);
    in_recovery_ = in_recovery;
  }
  // Moves the clock the monitor measures the lag on.
  void Advance(absl::Duration d) {
    absl::MutexLock lock(&mu_);
    now_ += d;
  }

  ReplicaMonitor::Probes Probes() {
    return ReplicaMonitor::Probes{
        [this]() -> absl::StatusOr<int64_t> {
          absl::MutexLock lock(&mu_);
          return written_;
        },
        [this]() -> absl::StatusOr<storage::StandbyReplay> {
          absl::MutexLock lock(&mu_);
          if (!reachable_) return absl::UnavailableError("down");
          storage::StandbyReplay replay;
          replay.in_recovery = in_recovery_;
          if (in_recovery_) replay.replayed = replayed_;
          return replay;
        },
        [this] {
          absl::MutexLock lock(&mu_);
          return now_;
        }};
  }

 private:
  absl::Mutex mu_;
  int64_t written_ ABSL_GUARDED_BY(mu_) = 1000;
  int64_t replayed_ ABSL_GUARDED_BY(mu_) = 1000;
  bool paused_ ABSL_GUARDED_BY(mu_) = false;
  bool reachable_ ABSL_GUARDED_BY(mu_) = true;
  bool in_recovery_ ABSL_GUARDED_BY(mu_) = true;
  // Starts at the real time and moves with it only through Advance: the
  // lag of a paused replay grows when a test says so.
  absl::Time now_ ABSL_GUARDED_BY(mu_) = absl::Now();
};

// Polls until the monitor's state is `want`; false after 10 s.
bool Reaches(const ReplicaMonitor& monitor, ReplicaState want) {
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (monitor.state() != want) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));  // polling, not ordering
  }
  return true;
}

// Waits until `n` more checks than `before` have ended; false after 10 s.
bool ChecksEnd(const ReplicaMonitor& monitor, int64_t before, int64_t n) {
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (monitor.checks() < before + n) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));  // polling, not ordering
  }
  return true;
}

constexpr absl::Duration kFast = absl::Milliseconds(10);

TEST(ReplicaMonitorTest, ACaughtUpStandbyIsUsed) {
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Seconds(5), metrics.replica(),
                         kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  EXPECT_TRUE(monitor.Route());
  // Writes that replay at once keep it in use.
  db.Write(100);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  EXPECT_TRUE(monitor.Route());
}

TEST(ReplicaMonitorTest, AnUnreachableStandbyIsNotUsedUntilItAnswers) {
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Seconds(5), metrics.replica(),
                         kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  db.SetReachable(false);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kUnreachable));
  EXPECT_FALSE(monitor.Route());
  db.SetReachable(true);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  EXPECT_TRUE(monitor.Route());
}

TEST(ReplicaMonitorTest, AServerNotInRecoveryIsNotUsed) {
  FakeReplication db;
  db.SetInRecovery(false);
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Seconds(5), metrics.replica(),
                         kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kNotStandby));
  EXPECT_FALSE(monitor.Route());
}

TEST(ReplicaMonitorTest, AStandbyPastTheBoundIsNotUsedUntilItCatchesUp) {
  FakeReplication db;
  Metrics metrics;
  // A bound far above the checks' interval, so that a busy machine
  // delaying a check does not make the standby lag by itself.
  ReplicaMonitor monitor(db.Probes(), absl::Seconds(1), metrics.replica(),
                         kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  db.PauseReplay(true);
  db.Write(100);
  // The write stays unreplayed for 2 s of the monitor's clock.
  db.Advance(absl::Seconds(2));
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kLagging));
  EXPECT_FALSE(monitor.Route());
  db.PauseReplay(false);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  EXPECT_TRUE(monitor.Route());
}

TEST(ReplicaMonitorTest, AnIdlePrimaryIsNoLag) {
  // Nothing written for longer than the bound: nothing to replay, no lag.
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Seconds(1), metrics.replica(),
                         kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  // 1.5 s on the monitor's clock pass between two checks, then a few checks
  // run: an idle primary with the replay at its position is no lag.
  const int64_t before = monitor.checks();
  db.Advance(absl::Milliseconds(1500));
  ASSERT_TRUE(ChecksEnd(monitor, before, 3));
  EXPECT_EQ(monitor.state(), ReplicaState::kInUse);
  EXPECT_TRUE(monitor.Route());
}

TEST(ReplicaMonitorTest, AFailedReadSendsReadsToThePrimaryUntilTheNextCheck) {
  FakeReplication db;
  Metrics metrics;
  // One check only (at start): nothing but ReadFailed changes the state.
  ReplicaMonitor monitor(db.Probes(), absl::Hours(1), metrics.replica(),
                         absl::Hours(1));
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  monitor.ReadFailed();
  EXPECT_EQ(monitor.state(), ReplicaState::kUnreachable);
  EXPECT_FALSE(monitor.Route());
}

// RoutedReads ---------------------------------------------------------------

// Stands for a service's repositories: which database they read.
struct FakeStores {
  std::string database;
};

TEST(RoutedReadsTest, WithoutAReplicaEveryReadIsOnThePrimary) {
  RoutedReads<FakeStores> reads({"primary"}, std::nullopt);
  std::string used;
  ASSERT_TRUE(reads
                  .Read(ReadsFrom::kReplica,
                        [&](const FakeStores& s) {
                          used = s.database;
                          return absl::OkStatus();
                        })
                  .ok());
  EXPECT_EQ(used, "primary");
}

TEST(RoutedReadsTest, ReadsFollowTheirRpcAndTheMonitor) {
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Hours(1), metrics.replica(), kFast);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  RoutedReads<FakeStores> reads(
      {"primary"}, ReplicaStores<FakeStores>{{"replica"}, monitor});
  auto where = [&](ReadsFrom from) {
    std::string used;
    absl::Status status = reads.Read(from, [&](const FakeStores& s) {
      used = s.database;
      return absl::OkStatus();
    });
    EXPECT_TRUE(status.ok()) << status;
    return used;
  };
  EXPECT_EQ(where(ReadsFrom::kReplica), "replica");
  EXPECT_EQ(where(ReadsFrom::kPrimary), "primary");
  db.SetReachable(false);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kUnreachable));
  EXPECT_EQ(where(ReadsFrom::kReplica), "primary");
  db.SetReachable(true);
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  EXPECT_EQ(where(ReadsFrom::kReplica), "replica");
}

TEST(RoutedReadsTest, AReplicaFailureIsAnsweredByThePrimary) {
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Hours(1), metrics.replica(),
                         absl::Hours(1));
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  RoutedReads<FakeStores> reads(
      {"primary"}, ReplicaStores<FakeStores>{{"replica"}, monitor});
  std::vector<std::string> runs;
  absl::Status status =
      reads.Read(ReadsFrom::kReplica, [&](const FakeStores& s) {
        runs.push_back(s.database);
        return s.database == "replica" ? absl::UnavailableError("replica down")
                                       : absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(runs, (std::vector<std::string>{"replica", "primary"}));
  EXPECT_EQ(monitor.state(), ReplicaState::kUnreachable);
}

TEST(RoutedReadsTest, AnAnswerOfTheReplicaIsNotAskedAgain) {
  FakeReplication db;
  Metrics metrics;
  ReplicaMonitor monitor(db.Probes(), absl::Hours(1), metrics.replica(),
                         absl::Hours(1));
  ASSERT_TRUE(Reaches(monitor, ReplicaState::kInUse));
  RoutedReads<FakeStores> reads(
      {"primary"}, ReplicaStores<FakeStores>{{"replica"}, monitor});
  int runs = 0;
  absl::Status status = reads.Read(ReadsFrom::kReplica, [&](const FakeStores&) {
    ++runs;
    return absl::NotFoundError("no quote");
  });
  EXPECT_TRUE(absl::IsNotFound(status));
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(monitor.state(), ReplicaState::kInUse);
}

}  // namespace
}  // namespace mdc
