#include "storage/storage_report_repository.h"

namespace mdc::storage {
namespace {

constexpr Statement kStorageReport{
    "storage_report",
    "SELECT kind, month, form, rows, bytes FROM mdc_storage_report() "
    "ORDER BY kind COLLATE \"C\", month COLLATE \"C\", form COLLATE \"C\""};

}  // namespace

absl::StatusOr<std::vector<StorageUsage>> StorageReportRepository::Report() {
  std::vector<StorageUsage> usage;
  absl::Status status = pool_.InTransaction([&](Connection& conn) {
    // Counting a large month takes longer than a call's statement timeout.
    if (auto set = conn.ExecScript("SET LOCAL statement_timeout = 0");
        !set.ok()) {
      return set.status();
    }
    auto result = conn.Exec(kStorageReport);
    if (!result.ok()) return result.status();
    for (int row = 0; row < result->rows(); ++row) {
      usage.push_back({result->String(row, 0), result->String(row, 1),
                       result->String(row, 2), result->Int64(row, 3),
                       result->Int64(row, 4)});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  pool_.observer().StorageReported(usage);
  return usage;
}

}  // namespace mdc::storage
