#include "storage/batch.h"

#include <iterator>
#include <utility>

#include "storage/merged_batch.h"
#include "storage/pool.h"

namespace mdc::storage {
namespace {

constexpr Statement kBegin{"batch_begin", "BEGIN"};
constexpr Statement kCommit{"batch_commit", "COMMIT"};
const Params kNoParams;

std::vector<absl::StatusOr<Result>> AllFail(size_t count,
                                            const absl::Status& status) {
  std::vector<absl::StatusOr<Result>> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) out.push_back(status);
  return out;
}

// The status of the first statement of a batch that the database cancelled
// for running too long, or nullptr.
const absl::Status* FirstTimeout(
    const std::vector<absl::StatusOr<Result>>& results) {
  for (const auto& result : results) {
    if (!result.ok() && IsStatementTimeout(result.status())) {
      return &result.status();
    }
  }
  return nullptr;
}

}  // namespace

BatchResults RunBatch(ConnectionPool& pool, BatchMode mode,
                      const std::vector<Connection::Query>& queries) {
  BatchResults out;
  // A write batch may take the connections kept for writes: reads never
  // make it wait.
  auto conn = pool.Acquire(absl::Seconds(10), mode == BatchMode::kWrite
                                                  ? PoolUse::kWrites
                                                  : PoolUse::kOther);
  if (!conn.ok()) {
    out.results = AllFail(queries.size(), conn.status());
    return out;
  }
  out.results.reserve(queries.size());
  if (queries.size() == 1) {
    // Alone: a plain autocommit statement, nothing to share.
    out.statements = 1;
    out.results.push_back(
        (*conn)->Exec(*queries[0].statement, *queries[0].params));
    return out;
  }
  const bool write = mode == BatchMode::kWrite;
  // Reads are never merged: the batch sends the queries as they are.
  const MergedBatch merged(write ? queries : std::vector<Connection::Query>());
  const std::vector<Connection::Query>& sent =
      write ? merged.queries() : queries;
  std::vector<Connection::Query> pipeline;
  pipeline.reserve(sent.size() + 2);
  if (write) pipeline.push_back({&kBegin, &kNoParams});
  pipeline.insert(pipeline.end(), sent.begin(), sent.end());
  if (write) pipeline.push_back({&kCommit, &kNoParams});
  std::vector<absl::StatusOr<Result>> results = (*conn)->ExecPipeline(pipeline);
  out.statements = static_cast<int>(sent.size());

  bool all_ok = true;
  for (const auto& result : results) all_ok = all_ok && result.ok();
  const size_t first = write ? 1 : 0;
  if (all_ok) {
    std::vector<absl::StatusOr<Result>> answers(
        std::make_move_iterator(results.begin() + first),
        std::make_move_iterator(results.begin() + first + sent.size()));
    out.results = write ? merged.Split(std::move(answers)) : std::move(answers);
    return out;
  }
  if (!(*conn)->healthy()) {
    // Lost mid-batch: whether a write batch committed is unknown, as for a
    // single statement whose connection drops. Writes are idempotent
    // upserts; the client retries.
    out.results =
        AllFail(queries.size(), absl::UnavailableError("database unavailable"));
    return out;
  }
  for (const auto& result : results) {
    if (IsCommitUnconfirmed(result.status())) {
      // The batch committed on the primary, its standby copy unconfirmed
      // (pg.h): run again one by one, each statement would wait for the
      // same standby. Every submitter sends again instead.
      out.results = AllFail(queries.size(), result.status());
      return out;
    }
  }
  if (const absl::Status* timeout = FirstTimeout(results); timeout != nullptr) {
    // A statement ran past statement_timeout. Running the others again one
    // by one could take as long for each (they may wait on the same lock),
    // so every statement that did not succeed fails like it: nothing of a
    // write batch committed, and a read is safe to send again.
    if (write) {
      (void)(*conn)->ExecScript("ROLLBACK");
      out.results = AllFail(queries.size(), *timeout);
      return out;
    }
    for (size_t i = 0; i < queries.size(); ++i) {
      auto& result = results[i];
      out.results.push_back(result.ok() ? std::move(result)
                                        : absl::StatusOr<Result>(*timeout));
    }
    return out;
  }
  if (write) {
    // One statement failed: nothing of the batch committed. Run each query
    // on its own so only the failing one fails (in submission order, so the
    // outcome is that of running them one after the other).
    (void)(*conn)->ExecScript("ROLLBACK");
    for (const auto& query : queries) {
      out.results.push_back((*conn)->Exec(*query.statement, *query.params));
    }
    out.statements += static_cast<int>(queries.size());
    return out;
  }
  // Reads: keep what ran; run again what the failure made the server skip.
  for (size_t i = 0; i < queries.size(); ++i) {
    auto& result = results[i];
    if (!result.ok() && IsSkippedInPipeline(result.status())) {
      out.results.push_back(
          (*conn)->Exec(*queries[i].statement, *queries[i].params));
      ++out.statements;
    } else {
      out.results.push_back(std::move(result));
    }
  }
  return out;
}

}  // namespace mdc::storage
