// HealthMonitor: what it publishes, and that once Drain has returned it
// never publishes SERVING again, wherever Drain falls in a probe round (the
// shutdown race: a round that found the database up used to publish
// SERVING just after Drain had published NOT_SERVING).
#include "service/lifecycle/health_monitor.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "service/metrics/metrics.h"
#include "storage/pool.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

// Long enough that a test sees exactly one probe round unless it wakes the
// monitor (Drain and the destructor do).
constexpr absl::Duration kOneRoundOnly = absl::Hours(1);

// Records every status published, in order. Can hold the next SERVING
// publication inside SetServingStatus (the monitor is then past its "still
// running?" check) until the test releases it.
class RecordingHealth final : public grpc::HealthCheckServiceInterface {
 public:
  void SetServingStatus(const std::string&, bool serving) override {
    SetServingStatus(serving);
  }

  void SetServingStatus(bool serving) override {
    if (serving && hold_serving_ && !held_.HasBeenNotified()) {
      held_.Notify();
      release_.WaitForNotification();
    }
    absl::MutexLock lock(&mu_);
    published_.push_back(serving);
    if (!first_.HasBeenNotified()) first_.Notify();
  }

  // Call before the monitor starts.
  void HoldNextServing() { hold_serving_ = true; }
  void WaitUntilHeld() { held_.WaitForNotification(); }
  void Release() { release_.Notify(); }
  void WaitForFirst() { first_.WaitForNotification(); }

  std::vector<bool> published() {
    absl::MutexLock lock(&mu_);
    return published_;
  }

 private:
  bool hold_serving_ = false;
  absl::Notification held_;
  absl::Notification release_;
  absl::Notification first_;
  absl::Mutex mu_;
  std::vector<bool> published_ ABSL_GUARDED_BY(mu_);
};

// A probe that answers `up`, after the test releases it when `block`.
class FakeProbe {
 public:
  explicit FakeProbe(bool up, bool block = false) : up_(up), block_(block) {}

  HealthMonitor::Probe AsProbe() {
    return [this] {
      if (block_) {
        entered_.Notify();
        release_.WaitForNotification();
      }
      return up_;
    };
  }

  void WaitUntilEntered() { entered_.WaitForNotification(); }
  void Release() { release_.Notify(); }

 private:
  const bool up_;
  const bool block_;
  absl::Notification entered_;
  absl::Notification release_;
};

// Passes when nothing from index `from` of `published` on is SERVING.
::testing::AssertionResult NoServingFrom(const std::vector<bool>& published,
                                         size_t from) {
  for (size_t i = from; i < published.size(); ++i) {
    if (published[i]) {
      return ::testing::AssertionFailure()
             << "SERVING published (status #" << i << " of " << published.size()
             << ") after Drain returned";
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(HealthMonitor, PublishesWhatTheProbeAnswers) {
  Metrics metrics;
  for (const bool up : {true, false}) {
    RecordingHealth health;
    FakeProbe probe(up);
    HealthMonitor monitor(probe.AsProbe(), &health, metrics, kOneRoundOnly);
    health.WaitForFirst();
    EXPECT_EQ(health.published(), std::vector<bool>{up});
  }
}

TEST(HealthMonitor, DrainPublishesNotServing) {
  Metrics metrics;
  RecordingHealth health;
  FakeProbe probe(true);
  auto monitor = std::make_unique<HealthMonitor>(probe.AsProbe(), &health,
                                                 metrics, kOneRoundOnly);
  health.WaitForFirst();
  monitor->Drain();
  monitor.reset();
  EXPECT_EQ(health.published(), (std::vector<bool>{true, false}));
}

// Drain while a probe is under way: Drain does not wait for the probe, and
// the round it belongs to publishes nothing.
TEST(HealthMonitor, ProbeUnderWayWhenDrainedPublishesNothing) {
  Metrics metrics;
  RecordingHealth health;
  FakeProbe probe(/*up=*/true, /*block=*/true);
  auto monitor = std::make_unique<HealthMonitor>(probe.AsProbe(), &health,
                                                 metrics, kOneRoundOnly);
  probe.WaitUntilEntered();
  monitor->Drain();  // Returns with the probe still blocked.
  const size_t drained = health.published().size();
  probe.Release();
  monitor.reset();  // Joins the thread: its round is over.
  EXPECT_EQ(health.published(), std::vector<bool>{false});
  EXPECT_TRUE(NoServingFrom(health.published(), drained));
}

// The race itself: the round has checked that the monitor still runs and is
// publishing SERVING when Drain is called. Drain must not return before that
// publication has landed, so its NOT_SERVING comes last. (Before the fix,
// Drain returned at once and SERVING landed after it.)
TEST(HealthMonitor, DrainDuringAServingPublicationHasTheLastWord) {
  Metrics metrics;
  RecordingHealth health;
  health.HoldNextServing();
  FakeProbe probe(true);
  auto monitor = std::make_unique<HealthMonitor>(probe.AsProbe(), &health,
                                                 metrics, kOneRoundOnly);
  health.WaitUntilHeld();  // The round is inside SetServingStatus(true).

  absl::Notification drained;
  size_t published_at_drain = 0;
  std::thread drainer([&] {
    monitor->Drain();
    published_at_drain = health.published().size();
    drained.Notify();
  });
  // A correct Drain cannot return while the publication is held, so this
  // wait always runs out on the fixed code; it only gives a Drain that does
  // not wait the time to return (and so to fail here).
  EXPECT_FALSE(drained.WaitForNotificationWithTimeout(absl::Milliseconds(100)))
      << "Drain returned while SERVING was still being published";
  health.Release();
  drainer.join();
  monitor.reset();

  const std::vector<bool> published = health.published();
  EXPECT_TRUE(NoServingFrom(published, published_at_drain));
  ASSERT_FALSE(published.empty());
  EXPECT_FALSE(published.back()) << "the last status published is SERVING";
}

// The production probe: one round trip through the pool.
TEST(HealthMonitor, PingPoolAnswersWhetherTheDatabaseAnswers) {
  testing::TestDatabase db;
  EXPECT_TRUE(HealthMonitor::PingPool(db.pool())());
  storage::ConnectionPool nowhere(
      "postgresql://mdc@127.0.0.1:1/mdc?connect_timeout=2", 1);
  EXPECT_FALSE(HealthMonitor::PingPool(nowhere)());
}

}  // namespace
}  // namespace mdc
