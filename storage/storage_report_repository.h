// The storage report (AdminService.GetStorageReport): the disk the market
// history takes per kind and month, row-wise and compacted (migration 0013,
// mdc_storage_report).
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_STORAGE_REPORT_REPOSITORY_H_
#define MDC_STORAGE_STORAGE_REPORT_REPOSITORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/pool.h"

namespace mdc::storage {

struct StorageUsage {
  std::string kind;   // quotes, nifty, shortlists
  std::string month;  // YYYY-MM, or "default"
  std::string form;   // rows, compacted
  int64_t rows = 0;
  int64_t bytes = 0;
};

class StorageReportRepository {
 public:
  explicit StorageReportRepository(ConnectionPool& pool) : pool_(pool) {}

  // Every kind and month with a partition or compacted quotes, ordered by
  // kind, month and form. Counts every row (a maintenance read, no
  // statement timeout).
  absl::StatusOr<std::vector<StorageUsage>> Report();

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_STORAGE_REPORT_REPOSITORY_H_
