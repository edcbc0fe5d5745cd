// Trading runs and their orders. Every method takes the owning developer's
// id and touches only that developer's runs: another developer's run is
// reported exactly like a run that does not exist.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_RUN_REPOSITORY_H_
#define MDC_STORAGE_RUN_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "domain/runs.h"
#include "storage/pool.h"

namespace mdc::storage {

struct RunRecord {
  int64_t id = 0;
  std::string name;
  std::vector<std::string> tags;
  absl::Time start_at;
  absl::Time end_at;
  bool completed = false;
  absl::Time created_at;
  int64_t order_count = 0;
};

struct NewRun {
  std::string name;
  std::vector<std::string> tags;  // normalized (domain::NormalizeTags)
  absl::Time start_at;
  absl::Time end_at;
};

// The fields of a run to change; absent fields keep their value.
struct RunChanges {
  std::optional<bool> completed;
  std::optional<std::string> name;
  std::optional<std::vector<std::string>> tags;
};

struct OrderRecord {
  int64_t id = 0;
  int64_t run_id = 0;
  std::string nse_symbol;
  double entry_price = 0;
  double stop_loss_price = 0;
  double take_profit_price = 0;
  absl::Time ordered_at;
  absl::Time created_at;
};

struct NewOrder {
  std::string nse_symbol;
  double entry_price = 0;
  double stop_loss_price = 0;
  double take_profit_price = 0;
  absl::Time ordered_at;
};

class RunRepository {
 public:
  explicit RunRepository(ConnectionPool& pool) : pool_(pool) {}

  absl::StatusOr<RunRecord> CreateRun(int64_t developer_id, const NewRun& run);

  // The run with its order count, if `developer_id` owns it.
  absl::StatusOr<std::optional<RunRecord>> FindRun(int64_t developer_id,
                                                   int64_t run_id);

  // Up to `limit` runs of the developer, newest first (created_at, id
  // descending), after `after` when given, only those carrying `tag` when it
  // is not empty.
  absl::StatusOr<std::vector<RunRecord>> ListRuns(
      int64_t developer_id, const std::string& tag,
      const std::optional<domain::PageCursor>& after, int limit);

  // The developer's distinct tags, in byte order.
  absl::StatusOr<std::vector<std::string>> ListTags(int64_t developer_id);

  // Applies `changes` in one statement; nullopt when the developer has no
  // such run.
  absl::StatusOr<std::optional<RunRecord>> UpdateRun(int64_t developer_id,
                                                     int64_t run_id,
                                                     const RunChanges& changes);

  // Deletes the run and (by cascade) its orders; false when the developer
  // has no such run.
  absl::StatusOr<bool> DeleteRun(int64_t developer_id, int64_t run_id);

  // Adds an order to the run; nullopt when the developer has no such run.
  absl::StatusOr<std::optional<OrderRecord>> CreateOrder(int64_t developer_id,
                                                         int64_t run_id,
                                                         const NewOrder& order);

  // Up to `limit` orders of a run ascending by (ordered_at, id), after
  // `after` when given. Ownership of the run is the caller's check
  // (FindRun).
  absl::StatusOr<std::vector<OrderRecord>> ListOrders(
      int64_t run_id, const std::optional<domain::PageCursor>& after,
      int limit);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_RUN_REPOSITORY_H_
