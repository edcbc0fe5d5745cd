// Keeps the partitioned market history in shape (docs/architecture.md,
// "Partitioned history"): at start-up and then every interval, drops the
// months the retention (MDC_RETENTION_MONTHS) no longer keeps, then makes
// sure the partitions of the current month and the next
// domain::kPartitionMonthsAhead months exist, moving rows that landed in a
// DEFAULT partition into their month's new partition; then, with
// MDC_COMPACT_AFTER_DAYS set, compacts the stock quotes of the trading days
// that old (storage/compaction_repository.h). Every server runs
// it; the database makes them take turns, and each pass is idempotent.
//
// A pass that fails (database away, a lock not granted in time) is logged
// and tried again at the next interval; writes never depend on it, since a
// month without a partition is written to the DEFAULT partition.
#ifndef MDC_SERVICE_LIFECYCLE_HISTORY_MAINTENANCE_H_
#define MDC_SERVICE_LIFECYCLE_HISTORY_MAINTENANCE_H_

#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "storage/compaction_repository.h"
#include "storage/partition_repository.h"
#include "storage/storage_report_repository.h"

namespace mdc {

// What one pass did.
struct HistoryMaintenanceReport {
  int partitions_created = 0;
  storage::DataCounts rows_dropped;  // all zero without a retention
};

// One pass at `now`: the retention first (0 months = none), so that old
// rows sitting in a DEFAULT partition are deleted rather than given a
// partition of their own, then the partitions ahead.
absl::StatusOr<HistoryMaintenanceReport> MaintainHistory(
    storage::PartitionRepository& partitions, int retention_months,
    absl::Time now);

// Compacts the stock quotes of the trading days at least
// `compact_after_days` before today's at `now` (none when 0).
absl::StatusOr<storage::CompactionCounts> CompactClosedDays(
    storage::CompactionRepository& compaction, int compact_after_days,
    absl::Time now);

class HistoryMaintenance {
 public:
  // Starts the thread, which runs a pass at once and then every `interval`.
  // `partitions` (and `compaction` and `storage_report`, when given) must
  // outlive this object. A pass that compacted days reads the storage
  // report (which updates its metrics).
  HistoryMaintenance(
      storage::PartitionRepository& partitions, int retention_months,
      absl::Duration interval,
      storage::CompactionRepository* compaction = nullptr,
      int compact_after_days = 0,
      storage::StorageReportRepository* storage_report = nullptr);

  // Stops the thread, waiting for a pass under way.
  ~HistoryMaintenance();

  HistoryMaintenance(const HistoryMaintenance&) = delete;
  HistoryMaintenance& operator=(const HistoryMaintenance&) = delete;

 private:
  void Loop();

  storage::PartitionRepository& partitions_;
  const int retention_months_;
  storage::CompactionRepository* const compaction_;
  const int compact_after_days_;
  storage::StorageReportRepository* const storage_report_;
  const absl::Duration interval_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_HISTORY_MAINTENANCE_H_
