// InParallel: every item once, on no more threads than asked, none started
// for less work than a thread's share.
#include "storage/parallel_work.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace mdc::storage {
namespace {

TEST(InParallel, CallsEveryItemOnce) {
  for (size_t count : {0, 1, 7, 64, 1000, 4099}) {
    std::vector<std::atomic<int>> calls(count);
    InParallel(count, 1, 4, [&](size_t i) { calls[i].fetch_add(1); });
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(calls[i].load(), 1) << "item " << i << " of " << count;
    }
  }
}

// The threads that ran items, the calling one among them.
std::set<std::thread::id> ThreadsOf(size_t count, size_t min_per_worker,
                                    size_t max_workers) {
  std::mutex mutex;
  std::set<std::thread::id> threads;
  InParallel(count, min_per_worker, max_workers, [&](size_t) {
    std::lock_guard<std::mutex> lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  return threads;
}

TEST(InParallel, RunsLittleWorkOnTheCallingThreadAlone) {
  const std::set<std::thread::id> threads = ThreadsOf(63, 64, 4);
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_EQ(*threads.begin(), std::this_thread::get_id());
  EXPECT_EQ(ThreadsOf(1000, 1, 1).size(), 1u);
}

TEST(InParallel, TakesNoMoreThreadsThanAskedOrThanTheWorkFills) {
  // At most the workers asked, and at most one per min_per_worker items
  // (how many of them get an item is up to the scheduler).
  EXPECT_LE(ThreadsOf(10000, 1, 2).size(), 2u);
  EXPECT_LE(ThreadsOf(150, 64, 4).size(), 2u);
  EXPECT_GE(ReadWorkers(), 1u);
  EXPECT_LE(ReadWorkers(), 4u);
}

}  // namespace
}  // namespace mdc::storage
