#include "storage/parallel_work.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace mdc::storage {

size_t ReadWorkers() {
  static const size_t workers = std::clamp<size_t>(
      static_cast<size_t>(std::thread::hardware_concurrency()), 1, 4);
  return workers;
}

void InParallel(size_t count, size_t min_per_worker, size_t max_workers,
                const std::function<void(size_t)>& work) {
  const size_t workers =
      std::clamp<size_t>(count / std::max<size_t>(min_per_worker, 1), 1,
                         std::max<size_t>(max_workers, 1));
  // Items are taken one at a time: their costs differ (a batch of one
  // quote beside one of a thousand).
  std::atomic<size_t> next{0};
  auto take = [&] {
    for (size_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      work(i);
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t worker = 1; worker < workers; ++worker) {
    try {
      threads.emplace_back(take);
    } catch (const std::system_error&) {
      break;  // no thread to be had: the ones started take the rest
    }
  }
  take();
  for (std::thread& thread : threads) thread.join();
}

}  // namespace mdc::storage
