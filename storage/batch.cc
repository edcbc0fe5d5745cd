#include "storage/batch.h"

#include <utility>

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

std::vector<absl::StatusOr<Result>> RunBatch(
    ConnectionPool& pool, BatchMode mode,
    const std::vector<Connection::Query>& queries) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return AllFail(queries.size(), conn.status());
  std::vector<absl::StatusOr<Result>> out;
  out.reserve(queries.size());
  if (queries.size() == 1) {
    // Alone: a plain autocommit statement, nothing to share.
    out.push_back((*conn)->Exec(*queries[0].statement, *queries[0].params));
    return out;
  }
  const bool write = mode == BatchMode::kWrite;
  std::vector<Connection::Query> pipeline;
  pipeline.reserve(queries.size() + 2);
  if (write) pipeline.push_back({&kBegin, &kNoParams});
  pipeline.insert(pipeline.end(), queries.begin(), queries.end());
  if (write) pipeline.push_back({&kCommit, &kNoParams});
  std::vector<absl::StatusOr<Result>> results = (*conn)->ExecPipeline(pipeline);

  bool all_ok = true;
  for (const auto& result : results) all_ok = all_ok && result.ok();
  const size_t first = write ? 1 : 0;
  if (all_ok) {
    for (size_t i = 0; i < queries.size(); ++i) {
      out.push_back(std::move(results[first + i]));
    }
    return out;
  }
  if (!(*conn)->healthy()) {
    // Lost mid-batch: whether a write batch committed is unknown, as for a
    // single statement whose connection drops. Writes are idempotent
    // upserts; the client retries.
    return AllFail(queries.size(),
                   absl::UnavailableError("database unavailable"));
  }
  if (const absl::Status* timeout = FirstTimeout(results); timeout != nullptr) {
    // A statement ran past statement_timeout. Running the others again one
    // by one could take as long for each (they may wait on the same lock),
    // so every statement that did not succeed fails like it: nothing of a
    // write batch committed, and a read is safe to send again.
    if (write) (void)(*conn)->ExecScript("ROLLBACK");
    for (size_t i = 0; i < queries.size(); ++i) {
      auto& result = results[first + i];
      if (!write && result.ok()) {
        out.push_back(std::move(result));
      } else {
        out.push_back(*timeout);
      }
    }
    return out;
  }
  if (write) {
    // One statement failed: nothing of the batch committed. Run each on its
    // own so only the failing one fails (in submission order, so the
    // outcome is that of running them one after the other).
    (void)(*conn)->ExecScript("ROLLBACK");
    for (const auto& query : queries) {
      out.push_back((*conn)->Exec(*query.statement, *query.params));
    }
    return out;
  }
  // Reads: keep what ran; run again what the failure made the server skip.
  for (size_t i = 0; i < queries.size(); ++i) {
    auto& result = results[first + i];
    if (!result.ok() && IsSkippedInPipeline(result.status())) {
      out.push_back((*conn)->Exec(*queries[i].statement, *queries[i].params));
    } else {
      out.push_back(std::move(result));
    }
  }
  return out;
}

}  // namespace mdc::storage
