// The admission gate of heavy reads (service/calls/heavy_read_gate.h): the
// server-wide limit makes a heavy read wait, first come first served, until
// a turn frees or its deadline passes; the per-developer limit refuses at
// once; a refusal says which rule and when to retry. Threads are ordered by
// what the gate reports (waiting()), never by sleeping.
#include "service/calls/heavy_read_gate.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "domain/error_reason.h"
#include "google/rpc/error_details.pb.h"

namespace mdc {
namespace {

// Spins (yielding) until `gate` has `n` waiters: the waiting thread has
// taken its place in the queue.
void AwaitWaiters(const HeavyReadGate& gate, int n) {
  while (gate.waiting() != n) std::this_thread::yield();
}

std::string LimitOf(const absl::Status& status) {
  const auto rpc = domain::ToRpcStatus(status);
  for (const auto& detail : rpc.details()) {
    google::rpc::ErrorInfo info;
    if (detail.UnpackTo(&info)) return info.metadata().at("limit");
  }
  return "";
}

TEST(HeavyReadGate, RunsUpToTheServerLimitAtOnce) {
  HeavyReadGate gate({/*server=*/2, /*per_developer=*/0, absl::Seconds(10)});
  auto a = gate.Enter("alice", absl::InfiniteFuture());
  auto b = gate.Enter("bob", absl::InfiniteFuture());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(gate.running(), 2);
  // A third whose deadline has passed is refused without waiting.
  const auto c = gate.Enter("carol", absl::Now());
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(domain::ReasonOf(c.status()), "HEAVY_READS_LIMITED");
  EXPECT_EQ(LimitOf(c.status()), "server");
  EXPECT_EQ(domain::RetryDelayOf(c.status()), kHeavyReadRetryDelay);
  EXPECT_NE(c.status().message().find("MDC_HEAVY_READS"), std::string::npos)
      << c.status();
  EXPECT_EQ(gate.running(), 2);
  EXPECT_EQ(gate.waiting(), 0);
}

TEST(HeavyReadGate, ThePerDeveloperLimitRefusesAtOnceAndOnlyThatDeveloper) {
  HeavyReadGate gate({/*server=*/0, /*per_developer=*/2, absl::Hours(1)});
  std::optional<HeavyReadGate::Pass> first;
  {
    auto pass = gate.Enter("alice", absl::InfiniteFuture());
    ASSERT_TRUE(pass.ok());
    first.emplace(*std::move(pass));
  }
  auto second = gate.Enter("alice", absl::InfiniteFuture());
  ASSERT_TRUE(second.ok());
  // No wait however far the deadline: refused at once, naming the rule.
  const auto third = gate.Enter("alice", absl::InfiniteFuture());
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(domain::ReasonOf(third.status()), "HEAVY_READS_LIMITED");
  EXPECT_EQ(LimitOf(third.status()), "developer");
  EXPECT_EQ(domain::RetryDelayOf(third.status()), kHeavyReadRetryDelay);
  EXPECT_NE(third.status().message().find("MDC_HEAVY_READS_PER_DEVELOPER"),
            std::string::npos)
      << third.status();
  EXPECT_TRUE(gate.Enter("bob", absl::InfiniteFuture()).ok());
  // One of Alice's answered: she may start another.
  first.reset();
  EXPECT_TRUE(gate.Enter("alice", absl::InfiniteFuture()).ok());
}

TEST(HeavyReadGate, AWaiterRunsOnceATurnFrees) {
  HeavyReadGate gate({/*server=*/1, /*per_developer=*/0, absl::Hours(1)});
  std::optional<HeavyReadGate::Pass> held;
  {
    auto pass = gate.Enter("alice", absl::InfiniteFuture());
    ASSERT_TRUE(pass.ok());
    held.emplace(*std::move(pass));
  }
  absl::Status waited = absl::UnknownError("not run");
  std::thread bob([&] {
    auto pass = gate.Enter("bob", absl::InfiniteFuture());
    waited = pass.status();
  });
  AwaitWaiters(gate, 1);
  EXPECT_EQ(gate.running(), 1);
  held.reset();
  bob.join();
  EXPECT_TRUE(waited.ok()) << waited;
  EXPECT_EQ(gate.running(), 0);
  EXPECT_EQ(gate.waiting(), 0);
}

TEST(HeavyReadGate, WaitersRunFirstComeFirstServed) {
  HeavyReadGate gate({/*server=*/1, /*per_developer=*/0, absl::Hours(1)});
  std::optional<HeavyReadGate::Pass> held;
  {
    auto pass = gate.Enter("alice", absl::InfiniteFuture());
    ASSERT_TRUE(pass.ok());
    held.emplace(*std::move(pass));
  }
  absl::Mutex mu;
  std::vector<std::string> order;
  // Each notes that it runs while holding its turn, so the second can only
  // note after the first gave its turn back.
  auto read = [&](const std::string& who) {
    auto pass = gate.Enter(who, absl::InfiniteFuture());
    absl::MutexLock lock(&mu);
    order.push_back(pass.ok() ? who : "refused");
  };
  std::thread bob(read, "bob");
  AwaitWaiters(gate, 1);
  std::thread carol(read, "carol");
  AwaitWaiters(gate, 2);
  held.reset();
  bob.join();
  carol.join();
  EXPECT_EQ(order, (std::vector<std::string>{"bob", "carol"}));
}

TEST(HeavyReadGate, AWaiterPastItsDeadlineIsRefusedAndCountsNoMore) {
  HeavyReadGate gate({/*server=*/1, /*per_developer=*/1, absl::Hours(1)});
  std::optional<HeavyReadGate::Pass> held;
  {
    auto pass = gate.Enter("alice", absl::InfiniteFuture());
    ASSERT_TRUE(pass.ok());
    held.emplace(*std::move(pass));
  }
  const auto late = gate.Enter("bob", absl::Now());
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(LimitOf(late.status()), "server");
  EXPECT_EQ(gate.waiting(), 0);
  held.reset();
  // Bob's refused read no longer counts against his limit of one.
  EXPECT_TRUE(gate.Enter("bob", absl::InfiniteFuture()).ok());
}

TEST(HeavyReadGate, TheWaitLimitBoundsAFarDeadline) {
  HeavyReadGate gate({/*server=*/1, /*per_developer=*/0, absl::ZeroDuration()});
  auto held = gate.Enter("alice", absl::InfiniteFuture());
  ASSERT_TRUE(held.ok());
  const auto refused = gate.Enter("bob", absl::InfiniteFuture());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(LimitOf(refused.status()), "server");
  EXPECT_NE(refused.status().message().find("MDC_HEAVY_READ_WAIT"),
            std::string::npos)
      << refused.status();
}

TEST(HeavyReadGate, AWaitingReadCountsAgainstItsDeveloper) {
  HeavyReadGate gate({/*server=*/1, /*per_developer=*/1, absl::Hours(1)});
  std::optional<HeavyReadGate::Pass> held;
  {
    auto pass = gate.Enter("carol", absl::InfiniteFuture());
    ASSERT_TRUE(pass.ok());
    held.emplace(*std::move(pass));
  }
  absl::Status waited = absl::UnknownError("not run");
  std::thread alice([&] {
    auto pass = gate.Enter("alice", absl::InfiniteFuture());
    waited = pass.status();
  });
  AwaitWaiters(gate, 1);
  // Alice already has one read (waiting): a second is refused at once.
  const auto again = gate.Enter("alice", absl::InfiniteFuture());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(LimitOf(again.status()), "developer");
  held.reset();
  alice.join();
  EXPECT_TRUE(waited.ok()) << waited;
}

TEST(HeavyReadGate, NoLimitsLetEverythingRun) {
  HeavyReadGate gate({/*server=*/0, /*per_developer=*/0, absl::Seconds(1)});
  std::vector<HeavyReadGate::Pass> passes;
  for (int i = 0; i < 100; ++i) {
    auto pass = gate.Enter("alice", absl::Now());
    ASSERT_TRUE(pass.ok()) << i;
    passes.push_back(*std::move(pass));
  }
  EXPECT_EQ(gate.running(), 100);
  passes.clear();
  EXPECT_EQ(gate.running(), 0);
}

}  // namespace
}  // namespace mdc
