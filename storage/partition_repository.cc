#include "storage/partition_repository.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"

namespace mdc::storage {
namespace {

constexpr Statement kMonthsToPartition{
    "partitions_months_to_add",
    "SELECT m FROM mdc_months_to_partition($1, $2) AS m"};
// Taking turns with the other servers' maintenance (advisory lock 4242004,
// migration 0010); false when another server added the month meanwhile.
constexpr Statement kAddMonth{
    "partitions_add_month",
    "SELECT mdc_create_month_partition($1, $2) "
    "FROM (SELECT pg_advisory_xact_lock(4242004)) AS turn"};

// The partitioned market tables (mdc_partitioned_tables(), migration 0010).
// Each month is added in a transaction of its own: adding a partition locks
// the whole table until commit, so one month of one table at a time keeps
// that short and cannot deadlock with a writer.
constexpr const char* kPartitionedTables[] = {"stock_quotes", "nifty_quotes",
                                              "shortlist_snapshots"};

constexpr Statement kDropBefore{
    "partitions_drop_before",
    "SELECT mdc_purge_before('shortlist_snapshots', $1), "
    "mdc_purge_before('stock_quotes', $1), "
    "mdc_purge_before('nifty_quotes', $1)"};

// No statement timeout, and at most `lock_wait` for each lock, for the rest
// of the transaction. SET takes no parameters; the number is ours, not a
// caller's text.
absl::Status SetMaintenanceLimits(Connection& conn, absl::Duration lock_wait) {
  return conn
      .ExecScript(absl::StrCat(
          "SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = ",
          std::max<int64_t>(1, absl::ToInt64Milliseconds(lock_wait))))
      .status();
}

}  // namespace

absl::StatusOr<int> PartitionRepository::EnsurePartitions(
    int months_ahead, absl::Duration lock_wait) {
  int created = 0;
  for (const char* table : kPartitionedTables) {
    std::vector<absl::CivilDay> months;
    {
      auto conn = pool_.Acquire();
      if (!conn.ok()) return conn.status();
      auto result = (*conn)->Exec(kMonthsToPartition,
                                  Params().Int32(months_ahead).Text(table));
      if (!result.ok()) return result.status();
      for (int row = 0; row < result->rows(); ++row) {
        months.push_back(result->Date(row, 0));
      }
    }
    for (const absl::CivilDay& month : months) {
      absl::Status status = pool_.InTransaction([&](Connection& conn) {
        if (auto set = SetMaintenanceLimits(conn, lock_wait); !set.ok()) {
          return set;
        }
        auto added = conn.Exec(kAddMonth, Params().Text(table).Date(month));
        if (!added.ok()) return added.status();
        if (added->Bool(0, 0)) ++created;
        return absl::OkStatus();
      });
      if (!status.ok()) return status;
    }
  }
  return created;
}

absl::StatusOr<DataCounts> PartitionRepository::DropBefore(
    absl::CivilDay first_kept_day, absl::Duration lock_wait) {
  DataCounts counts;
  absl::Status status = pool_.InTransaction([&](Connection& conn) {
    if (auto set = SetMaintenanceLimits(conn, lock_wait); !set.ok()) {
      return set;
    }
    auto removed = conn.Exec(kDropBefore, Params().Date(first_kept_day));
    if (!removed.ok()) return removed.status();
    counts.shortlists = removed->Int64(0, 0);
    counts.quotes = removed->Int64(0, 1);
    counts.nifty_quotes = removed->Int64(0, 2);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return counts;
}

}  // namespace mdc::storage
