#include "service/lifecycle/history_maintenance.h"

#include "absl/time/civil_time.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/compaction.h"
#include "domain/retention.h"

namespace mdc {
namespace {

// Dropping a partition locks its table against writes until the drop
// commits, and queued behind a long query its wait would stall the ingest
// queued behind it; creating one waits for other servers' passes. Past
// this the pass gives up and the next one tries again.
constexpr absl::Duration kLockWait = absl::Seconds(5);

}  // namespace

absl::StatusOr<HistoryMaintenanceReport> MaintainHistory(
    storage::PartitionRepository& partitions, int retention_months,
    absl::Time now) {
  HistoryMaintenanceReport report;
  if (retention_months > 0) {
    auto dropped = partitions.DropBefore(
        domain::RetentionStart(now, retention_months), kLockWait);
    if (!dropped.ok()) return dropped.status();
    report.rows_dropped = *dropped;
  }
  auto created =
      partitions.EnsurePartitions(domain::kPartitionMonthsAhead, kLockWait);
  if (!created.ok()) return created.status();
  report.partitions_created = *created;
  return report;
}

absl::StatusOr<storage::CompactionCounts> CompactClosedDays(
    storage::CompactionRepository& compaction, int compact_after_days,
    absl::Time now) {
  const auto through = domain::AutoCompactThrough(now, compact_after_days);
  if (!through) return storage::CompactionCounts();
  return compaction.CompactThrough(*through, kLockWait);
}

HistoryMaintenance::HistoryMaintenance(
    storage::PartitionRepository& partitions, int retention_months,
    absl::Duration interval, storage::CompactionRepository* compaction,
    int compact_after_days, storage::StorageReportRepository* storage_report)
    : partitions_(partitions),
      retention_months_(retention_months),
      compaction_(compaction),
      compact_after_days_(compact_after_days),
      storage_report_(storage_report),
      interval_(interval),
      thread_([this] { Loop(); }) {}

HistoryMaintenance::~HistoryMaintenance() {
  stop_.Notify();
  thread_.join();
}

void HistoryMaintenance::Loop() {
  do {
    const absl::Time now = absl::Now();
    auto report = MaintainHistory(partitions_, retention_months_, now);
    if (!report.ok()) {
      log::Warning("history maintenance failed; next try in an interval",
                   {{"error", report.status().ToString()},
                    {"interval", absl::FormatDuration(interval_)}});
      continue;
    }
    if (report->partitions_created > 0 || report->rows_dropped.total() > 0) {
      log::Info("history maintenance",
                {{"partitions_created", report->partitions_created},
                 {"retention_months", retention_months_},
                 {"first_kept_day",
                  retention_months_ > 0
                      ? absl::FormatCivilTime(
                            domain::RetentionStart(now, retention_months_))
                      : std::string("none")},
                 {"shortlists_dropped", report->rows_dropped.shortlists},
                 {"quotes_dropped", report->rows_dropped.quotes},
                 {"nifty_quotes_dropped", report->rows_dropped.nifty_quotes}});
    }
    if (compaction_ == nullptr || compact_after_days_ == 0) continue;
    auto compacted = CompactClosedDays(*compaction_, compact_after_days_, now);
    if (!compacted.ok()) {
      log::Warning("compaction failed; next try in an interval",
                   {{"error", compacted.status().ToString()},
                    {"interval", absl::FormatDuration(interval_)}});
      continue;
    }
    if (compacted->days > 0 || compacted->nifty_days > 0) {
      log::Info("compacted closed trading days",
                {{"compact_after_days", compact_after_days_},
                 {"days", compacted->days},
                 {"quotes", compacted->quotes},
                 {"batches", compacted->batches},
                 {"busy_months", compacted->busy_months},
                 {"nifty_days", compacted->nifty_days},
                 {"nifty_quotes", compacted->nifty_quotes},
                 {"nifty_batches", compacted->nifty_batches}});
      // The storage metrics follow the compaction (a report counts every
      // partition's rows: after a change, not on a timer).
      if (storage_report_ != nullptr) {
        if (auto read = storage_report_->Report(); !read.ok()) {
          log::Warning("storage report after the compaction failed",
                       {{"error", read.status().ToString()}});
        }
      }
    }
  } while (!stop_.WaitForNotificationWithTimeout(interval_));
}

}  // namespace mdc
