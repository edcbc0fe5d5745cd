#include "storage/run_repository.h"

#include "absl/status/status.h"

namespace mdc::storage {
namespace {

// Columns of a run as ReadRun expects them; `r` is the runs row.
#define MDC_RUN_COLUMNS                                                     \
  "r.id, r.name, r.tags, r.start_at, r.end_at, r.completed, r.created_at, " \
  "(SELECT count(*) FROM orders o WHERE o.run_id = r.id)"

#define MDC_ORDER_COLUMNS                                                     \
  "id, run_id, nse_symbol, entry_price, stop_loss_price, take_profit_price, " \
  "ordered_at, created_at"

constexpr Statement kCreateRun{
    "runs_create",
    "INSERT INTO runs AS r (developer_id, name, tags, start_at, end_at) "
    "VALUES ($1, $2, $3, $4, $5) RETURNING " MDC_RUN_COLUMNS};

constexpr Statement kFindRun{
    "runs_find", "SELECT " MDC_RUN_COLUMNS
                 " FROM runs r WHERE r.id = $1 AND r.developer_id = $2"};

// $2 = '' means no tag filter; $3 false means no cursor.
constexpr Statement kListRuns{"runs_list",
                              "SELECT " MDC_RUN_COLUMNS
                              " FROM runs r WHERE r.developer_id = $1 "
                              "AND ($2 = '' OR $2 = ANY (r.tags)) "
                              "AND (NOT $3 OR (r.created_at, r.id) < ($4, $5)) "
                              "ORDER BY r.created_at DESC, r.id DESC LIMIT $6"};

constexpr Statement kListTags{
    "runs_list_tags",
    "SELECT DISTINCT t COLLATE \"C\" AS tag FROM runs, unnest(tags) AS t "
    "WHERE developer_id = $1 ORDER BY tag"};

// Each field changes only when its flag is true.
constexpr Statement kUpdateRun{
    "runs_update",
    "UPDATE runs AS r SET "
    "completed = CASE WHEN $3 THEN $4 ELSE r.completed END, "
    "name = CASE WHEN $5 THEN $6 ELSE r.name END, "
    "tags = CASE WHEN $7 THEN $8::text[] ELSE r.tags END "
    "WHERE r.id = $1 AND r.developer_id = $2 RETURNING " MDC_RUN_COLUMNS};

constexpr Statement kDeleteRun{
    "runs_delete", "DELETE FROM runs WHERE id = $1 AND developer_id = $2"};

constexpr Statement kCreateOrder{
    "orders_create",
    "INSERT INTO orders (run_id, nse_symbol, entry_price, stop_loss_price, "
    "take_profit_price, ordered_at) "
    "SELECT r.id, $3, $4, $5, $6, $7 FROM runs r "
    "WHERE r.id = $1 AND r.developer_id = $2 RETURNING " MDC_ORDER_COLUMNS};

constexpr Statement kListOrders{"orders_list",
                                "SELECT " MDC_ORDER_COLUMNS
                                " FROM orders WHERE run_id = $1 "
                                "AND (NOT $2 OR (ordered_at, id) > ($3, $4)) "
                                "ORDER BY ordered_at, id LIMIT $5"};

#undef MDC_RUN_COLUMNS
#undef MDC_ORDER_COLUMNS

RunRecord ReadRun(const Result& r, int row) {
  RunRecord run;
  run.id = r.Int64(row, 0);
  run.name = r.String(row, 1);
  run.tags = r.TextArray(row, 2);
  run.start_at = r.Time(row, 3);
  run.end_at = r.Time(row, 4);
  run.completed = r.Bool(row, 5);
  run.created_at = r.Time(row, 6);
  run.order_count = r.Int64(row, 7);
  return run;
}

OrderRecord ReadOrder(const Result& r, int row) {
  OrderRecord order;
  order.id = r.Int64(row, 0);
  order.run_id = r.Int64(row, 1);
  order.nse_symbol = r.String(row, 2);
  order.entry_price = r.Double(row, 3);
  order.stop_loss_price = r.Double(row, 4);
  order.take_profit_price = r.Double(row, 5);
  order.ordered_at = r.Time(row, 6);
  order.created_at = r.Time(row, 7);
  return order;
}

Params& Cursor(Params& params, const std::optional<domain::PageCursor>& after) {
  return params.Bool(after.has_value())
      .Time(after.has_value() ? after->at : absl::UnixEpoch())
      .Int64(after.has_value() ? after->id : 0);
}

}  // namespace

absl::StatusOr<RunRecord> RunRepository::CreateRun(int64_t developer_id,
                                                   const NewRun& run) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kCreateRun, Params()
                                              .Int64(developer_id)
                                              .Text(run.name)
                                              .TextArray(run.tags)
                                              .Time(run.start_at)
                                              .Time(run.end_at));
  if (!result.ok()) return result.status();
  pool_.observer().WriteCommitted(CommittedWrite{"runs", 1});
  return ReadRun(*result, 0);
}

absl::StatusOr<std::optional<RunRecord>> RunRepository::FindRun(
    int64_t developer_id, int64_t run_id) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kFindRun, Params().Int64(run_id).Int64(developer_id));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<RunRecord>();
  return std::optional<RunRecord>(ReadRun(*result, 0));
}

absl::StatusOr<std::vector<RunRecord>> RunRepository::ListRuns(
    int64_t developer_id, const std::string& tag,
    const std::optional<domain::PageCursor>& after, int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  Params params;
  params.Int64(developer_id).Text(tag);
  Cursor(params, after).Int64(limit);
  auto result = (*conn)->Exec(kListRuns, params);
  if (!result.ok()) return result.status();
  std::vector<RunRecord> runs;
  runs.reserve(result->rows());
  for (int i = 0; i < result->rows(); ++i) runs.push_back(ReadRun(*result, i));
  return runs;
}

absl::StatusOr<std::vector<std::string>> RunRepository::ListTags(
    int64_t developer_id) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kListTags, Params().Int64(developer_id));
  if (!result.ok()) return result.status();
  std::vector<std::string> tags;
  tags.reserve(result->rows());
  for (int i = 0; i < result->rows(); ++i) tags.push_back(result->String(i, 0));
  return tags;
}

absl::StatusOr<std::optional<RunRecord>> RunRepository::UpdateRun(
    int64_t developer_id, int64_t run_id, const RunChanges& changes) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(
      kUpdateRun,
      Params()
          .Int64(run_id)
          .Int64(developer_id)
          .Bool(changes.completed.has_value())
          .Bool(changes.completed.value_or(false))
          .Bool(changes.name.has_value())
          .Text(changes.name.value_or(""))
          .Bool(changes.tags.has_value())
          .TextArray(changes.tags.value_or(std::vector<std::string>())));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<RunRecord>();
  pool_.observer().WriteCommitted(CommittedWrite{"runs", 1});
  return std::optional<RunRecord>(ReadRun(*result, 0));
}

absl::StatusOr<bool> RunRepository::DeleteRun(int64_t developer_id,
                                              int64_t run_id) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kDeleteRun, Params().Int64(run_id).Int64(developer_id));
  if (!result.ok()) return result.status();
  return result->affected_rows() > 0;
}

absl::StatusOr<std::optional<OrderRecord>> RunRepository::CreateOrder(
    int64_t developer_id, int64_t run_id, const NewOrder& order) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kCreateOrder, Params()
                                                .Int64(run_id)
                                                .Int64(developer_id)
                                                .Text(order.nse_symbol)
                                                .Double(order.entry_price)
                                                .Double(order.stop_loss_price)
                                                .Double(order.take_profit_price)
                                                .Time(order.ordered_at));
  if (!result.ok()) {
    // The run was deleted between the SELECT and the foreign key check.
    if (SqlState(result.status()) == kForeignKeyViolation) {
      return std::optional<OrderRecord>();
    }
    return result.status();
  }
  if (result->rows() == 0) return std::optional<OrderRecord>();
  pool_.observer().WriteCommitted(CommittedWrite{"orders", 1});
  return std::optional<OrderRecord>(ReadOrder(*result, 0));
}

absl::StatusOr<std::vector<OrderRecord>> RunRepository::ListOrders(
    int64_t run_id, const std::optional<domain::PageCursor>& after, int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  Params params;
  params.Int64(run_id);
  Cursor(params, after).Int64(limit);
  auto result = (*conn)->Exec(kListOrders, params);
  if (!result.ok()) return result.status();
  std::vector<OrderRecord> orders;
  orders.reserve(result->rows());
  for (int i = 0; i < result->rows(); ++i) {
    orders.push_back(ReadOrder(*result, i));
  }
  return orders;
}

}  // namespace mdc::storage
