#include "storage/compaction_month.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"

namespace mdc::storage {

absl::Status CompactMonthOf(const CompactedKind& kind, Connection& conn,
                            const std::vector<absl::CivilDay>& days,
                            CompactionCounts& counts) {
  const Params month = Params().Date(days.front());
  auto turn = conn.Exec(kind.try_month_turn, month);
  if (!turn.ok()) return turn.status();
  if (!turn->Bool(0, 0)) {
    ++counts.busy_months;
    return absl::OkStatus();
  }
  auto partition = conn.Exec(kind.month_partition, month);
  if (!partition.ok()) return partition.status();
  if (partition->rows() == 0) {
    auto added = conn.Exec(kind.add_month_partition, month);
    if (!added.ok()) return added.status();
    partition = conn.Exec(kind.month_partition, month);
    if (!partition.ok()) return partition.status();
  }
  std::optional<std::string> part;
  if (partition->rows() > 0) part = partition->String(0, 0);
  // No write to the month may land between reading its rows and the swap:
  // writers of the month wait for this transaction (reads go on).
  const std::string locked = part.value_or(kind.default_partition);
  if (auto lock = conn.ExecScript(
          absl::StrCat("LOCK TABLE ", locked, " IN SHARE MODE"));
      !lock.ok()) {
    return lock.status();
  }
  // Looked for again under the lock: another server may have compacted
  // some of them since they were listed.
  auto with_rows = conn.Exec(kind.days_with_rows, Params().DateArray(days));
  if (!with_rows.ok()) return with_rows.status();
  std::vector<absl::CivilDay> todo;
  for (int row = 0; row < with_rows->rows(); ++row) {
    todo.push_back(with_rows->Date(row, 0));
  }
  if (todo.empty()) return absl::OkStatus();
  for (absl::CivilDay day : todo) {
    if (auto done = kind.compact_day(conn, day, counts); !done.ok()) {
      return done;
    }
  }
  auto removed = part ? conn.Exec(kind.rewrite_partition,
                                  Params().Text(*part).DateArray(todo))
                      : conn.Exec(kind.delete_days, Params().DateArray(todo));
  return removed.status();
}

}  // namespace mdc::storage
