// When each developer last wrote market records of each kind, and how many
// (table developer_writes, migration 0011): the servers merge their tallies
// of committed writes into it; the coverage view and the freshness metric
// read it.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_DEVELOPER_WRITE_REPOSITORY_H_
#define MDC_STORAGE_DEVELOPER_WRITE_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/coverage.h"
#include "storage/pool.h"

namespace mdc::storage {

// One developer's writes of one kind: over every trading day, and of the
// day asked for.
struct WriterSummary {
  int64_t developer_id = 0;
  std::string username;
  domain::RecordKind kind = domain::RecordKind::kQuote;
  absl::Time last_written;   // the latest write, any trading day
  absl::Time last_observed;  // the latest instant it wrote, any day
  // Of the day asked for; absent (and 0 records) when it wrote none then.
  std::optional<absl::Time> day_last_written;
  std::optional<absl::Time> day_last_observed;
  int64_t day_records = 0;
};

class DeveloperWriteRepository {
 public:
  explicit DeveloperWriteRepository(ConnectionPool& pool) : pool_(pool) {}

  // Adds the tallies (at most one per developer, kind and day) in one
  // statement: the later times win, the records add up. Tallies of
  // developers deleted meanwhile are dropped. Rows are locked in key order,
  // so servers merging at once never deadlock.
  absl::Status Merge(std::vector<domain::WriteTally> tallies);

  // Every developer and kind with a write on record, by username then kind,
  // with what it wrote for trading day `day`.
  absl::StatusOr<std::vector<WriterSummary>> Summaries(absl::CivilDay day);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_DEVELOPER_WRITE_REPOSITORY_H_
