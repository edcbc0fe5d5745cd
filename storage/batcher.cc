#include "storage/batcher.h"

#include <utility>

#include "storage/pool.h"

namespace mdc::storage {
namespace {

constexpr Statement kBegin{"batch_begin", "BEGIN"};
constexpr Statement kCommit{"batch_commit", "COMMIT"};
const Params kNoParams;

}  // namespace

Batcher::Batcher(ConnectionPool& pool, Mode mode, int max_batch,
                 int max_in_flight)
    : pool_(pool),
      mode_(mode),
      max_batch_(max_batch < 1 ? 1 : max_batch),
      max_in_flight_(max_in_flight < 1 ? 1 : max_in_flight) {}

absl::StatusOr<Result> Batcher::Run(const Statement& statement,
                                    const Params& params) {
  Job job{&statement, &params};
  absl::MutexLock lock(&mu_);
  waiting_.push_back(&job);
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
  auto conn = pool_.Acquire();
  if (!conn.ok()) {
    for (Job* job : batch) job->result = conn.status();
    return;
  }
  if (batch.size() == 1) {
    // Alone: a plain autocommit statement, nothing to share.
    batch[0]->result = (*conn)->Exec(*batch[0]->statement, *batch[0]->params);
    return;
  }
  const bool write = mode_ == Mode::kWrite;
  std::vector<Connection::Query> queries;
  queries.reserve(batch.size() + 2);
  if (write) queries.push_back({&kBegin, &kNoParams});
  for (const Job* job : batch) queries.push_back({job->statement, job->params});
  if (write) queries.push_back({&kCommit, &kNoParams});
  std::vector<absl::StatusOr<Result>> results = (*conn)->ExecPipeline(queries);

  bool all_ok = true;
  for (const auto& result : results) all_ok = all_ok && result.ok();
  const size_t first = write ? 1 : 0;
  if (all_ok) {
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i]->result = std::move(results[first + i]);
    }
    return;
  }
  if (!(*conn)->healthy()) {
    // Lost mid-batch: whether a write batch committed is unknown, as for a
    // single statement whose connection drops. Writes are idempotent
    // upserts; the client retries.
    for (Job* job : batch) {
      job->result = absl::UnavailableError("database unavailable");
    }
    return;
  }
  if (write) {
    // One statement failed: nothing of the batch committed. Run each on its
    // own so only the failing one fails (in submission order, so the
    // outcome is that of running them one after the other).
    (void)(*conn)->ExecScript("ROLLBACK");
    ExecuteOneByOne(**conn, batch);
    return;
  }
  // Reads: keep what ran; run again what the failure made the server skip.
  for (size_t i = 0; i < batch.size(); ++i) {
    auto& result = results[first + i];
    if (!result.ok() && IsSkippedInPipeline(result.status())) {
      batch[i]->result = (*conn)->Exec(*batch[i]->statement, *batch[i]->params);
    } else {
      batch[i]->result = std::move(result);
    }
  }
}

void Batcher::ExecuteOneByOne(Connection& conn,
                              const std::vector<Job*>& batch) {
  for (Job* job : batch) job->result = conn.Exec(*job->statement, *job->params);
}

}  // namespace mdc::storage
