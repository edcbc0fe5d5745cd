// FarFuture(), the one upper bound of "whatever is stored", and the reads
// that use it.
#include <gtest/gtest.h>

#include "absl/time/clock.h"
#include "domain/as_of.h"
#include "domain/backtest_clock.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

TEST(FarFuture, IsTheStartOf2200InUtc) {
  EXPECT_EQ(FormatInstant(FarFuture()), "2200-01-01T00:00:00Z");
  EXPECT_EQ(absl::ToUnixSeconds(FarFuture()), 7258118400);
}

TEST(FarFuture, BoundsTheLatestStoredReadWithoutAClock) {
  auto window = AsOfWindowFor("", "", BacktestClock(), absl::Now(),
                              WhenAbsent::kLatestStored);
  ASSERT_TRUE(window.ok()) << window.status();
  EXPECT_EQ(window->at, FarFuture());
  EXPECT_EQ(window->not_before, absl::UnixEpoch());
}

TEST(FarFuture, TheBacktestClockStillCutsTheLatestStoredRead) {
  const absl::Time clock = absl::FromUnixSeconds(1740976200);
  auto window = AsOfWindowFor("", "", BacktestClock(clock), absl::Now(),
                              WhenAbsent::kLatestStored);
  ASSERT_TRUE(window.ok()) << window.status();
  EXPECT_EQ(window->at, clock - absl::Microseconds(1));
}

}  // namespace
}  // namespace mdc::domain
