#include "service/streams/stream_workers.h"

#include <utility>

namespace mdc {

StreamWorkers::StreamWorkers(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

StreamWorkers::~StreamWorkers() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

void StreamWorkers::Post(absl::AnyInvocable<void() &&> job) {
  absl::MutexLock lock(&mu_);
  jobs_.push_back(std::move(job));
}

void StreamWorkers::Loop() {
  while (true) {
    absl::AnyInvocable<void() &&> job;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](StreamWorkers* self) ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu_) {
            return self->stopping_ || !self->jobs_.empty();
          },
          this));
      if (jobs_.empty()) return;  // stopping, and nothing left
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    std::move(job)();
  }
}

}  // namespace mdc
