// The database side of the admin maintenance scripts (see
// domain/db_scripts.h): each a fixed statement over a fixed list of
// tables. Nothing here takes SQL text from outside.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_MAINTENANCE_REPOSITORY_H_
#define MDC_STORAGE_MAINTENANCE_REPOSITORY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/pool.h"

namespace mdc::storage {

// What a script did (or, in a dry run, would do): a count and readable lines.
struct MaintenanceReport {
  int64_t affected = 0;
  std::vector<std::string> log;
};

class MaintenanceRepository {
 public:
  explicit MaintenanceRepository(ConnectionPool& pool) : pool_(pool) {}

  // ANALYZE of each mdc table; `affected` counts tables. A dry run lists
  // the tables only.
  absl::StatusOr<MaintenanceReport> Analyze(bool dry_run);

  // VACUUM (ANALYZE) of each mdc table, each in its own statement outside
  // any transaction (VACUUM cannot run inside one); `affected` counts
  // tables. A dry run lists the tables with their estimated dead rows.
  absl::StatusOr<MaintenanceReport> Vacuum(bool dry_run);

  // Natural keys held by more than one row; `affected` counts such keys.
  // Besides the primary keys it checks the looser keys a writer could
  // split by accident: usernames and stock symbols ignoring case and
  // surrounding blanks. Read-only.
  absl::StatusOr<MaintenanceReport> DedupeCheck();

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MAINTENANCE_REPOSITORY_H_
