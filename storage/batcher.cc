#include "storage/batcher.h"

#include <utility>

#include "absl/time/clock.h"
#include "storage/pool.h"

namespace mdc::storage {
Batcher::Batcher(ConnectionPool& pool, Mode mode, int max_batch,
                 int max_in_flight, absl::string_view name)
    : pool_(pool),
      observer_(pool.observer()),
      name_(name),
      mode_(mode),
      max_batch_(max_batch < 1 ? 1 : max_batch),
      max_in_flight_(max_in_flight < 1 ? 1 : max_in_flight) {}

absl::StatusOr<Result> Batcher::Run(const Statement& statement,
                                    const Params& params) {
  Job job{&statement, &params};
  absl::MutexLock lock(&mu_);
  waiting_.push_back(&job);
  observer_.BatchQueueDepth(name_, static_cast<int>(waiting_.size()));
  auto can_go = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return job.done || (!job.taken && in_flight_ < max_in_flight_);
  };
  while (true) {
    mu_.Await(absl::Condition(&can_go));
    if (job.done) break;
    // Lead a batch: the oldest waiting statements, ours among them unless
    // more than max_batch_ wait (then we lead again afterwards).
    std::vector<Job*> batch;
    while (!waiting_.empty() && static_cast<int>(batch.size()) < max_batch_) {
      Job* next = waiting_.front();
      waiting_.pop_front();
      next->taken = true;
      batch.push_back(next);
    }
    observer_.BatchQueueDepth(name_, static_cast<int>(waiting_.size()));
    ++in_flight_;
    mu_.Unlock();
    Execute(batch);
    mu_.Lock();
    --in_flight_;
    for (Job* done : batch) done->done = true;
  }
  return *std::move(job.result);
}

void Batcher::Execute(const std::vector<Job*>& batch) {
  std::vector<Connection::Query> queries;
  queries.reserve(batch.size());
  for (const Job* job : batch) queries.push_back({job->statement, job->params});
  const absl::Time start = absl::Now();
  BatchResults ran = RunBatch(pool_, mode_, queries);
  observer_.BatchRan(name_, static_cast<int>(batch.size()),
                     absl::Now() - start);
  observer_.BatchStatements(name_, ran.statements);
  for (size_t i = 0; i < batch.size(); ++i) {
    batch[i]->result = std::move(ran.results[i]);
  }
}

}  // namespace mdc::storage
