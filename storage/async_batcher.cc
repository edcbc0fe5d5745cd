#include "storage/async_batcher.h"

#include <utility>

#include "absl/time/clock.h"
#include "storage/pool.h"

namespace mdc::storage {

AsyncBatcher::AsyncBatcher(ConnectionPool& pool, BatchMode mode, int max_batch,
                           int threads, absl::string_view name)
    : pool_(pool),
      observer_(pool.observer()),
      name_(name),
      mode_(mode),
      max_batch_(max_batch < 1 ? 1 : static_cast<size_t>(max_batch)) {
  for (int i = 0; i < (threads < 1 ? 1 : threads); ++i) {
    threads_.emplace_back([this] { Loop(); });
  }
}

AsyncBatcher::~AsyncBatcher() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (auto& thread : threads_) thread.join();
}

void AsyncBatcher::Submit(const Statement& statement, Params params,
                          Done done) {
  absl::MutexLock lock(&mu_);
  waiting_.push_back(Job{&statement, std::move(params), std::move(done)});
  observer_.BatchQueueDepth(name_, static_cast<int>(waiting_.size()));
}

void AsyncBatcher::Loop() {
  std::vector<Job> batch;
  std::vector<Connection::Query> queries;
  while (true) {
    batch.clear();
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !waiting_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (waiting_.empty()) return;  // stopping, and nothing left to run
      while (!waiting_.empty() && batch.size() < max_batch_) {
        batch.push_back(std::move(waiting_.front()));
        waiting_.pop_front();
      }
      observer_.BatchQueueDepth(name_, static_cast<int>(waiting_.size()));
    }
    queries.clear();
    for (const Job& job : batch)
      queries.push_back({job.statement, &job.params});
    const absl::Time start = absl::Now();
    BatchResults ran = RunBatch(pool_, mode_, queries);
    observer_.BatchRan(name_, static_cast<int>(batch.size()),
                       absl::Now() - start);
    observer_.BatchStatements(name_, ran.statements);
    for (size_t i = 0; i < batch.size(); ++i) {
      std::move(batch[i].done)(std::move(ran.results[i]));
    }
  }
}

}  // namespace mdc::storage
