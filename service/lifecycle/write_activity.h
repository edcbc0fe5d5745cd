// The collectors' freshness (docs/operations.md, "Metrics"; the dashboard's
// coverage): tallies the market writes this server commits, per developer,
// kind of record and trading day, and merges the tallies into the database
// (developer_writes, migration 0011) every `flush_interval`, one statement
// per flush, so the write path itself takes no extra lock. Every
// `refresh_interval` it reads every developer's last write back for the
// freshness metric, so all servers export what any of them recorded.
//
// A flush that fails (database away) keeps its tallies for the next one; a
// crash loses at most one interval's tallies.
//
// Thread-safe.
#ifndef MDC_SERVICE_LIFECYCLE_WRITE_ACTIVITY_H_
#define MDC_SERVICE_LIFECYCLE_WRITE_ACTIVITY_H_

#include <cstdint>
#include <string>
#include <thread>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/coverage.h"
#include "service/metrics/freshness_metrics.h"
#include "storage/developer_write_repository.h"

namespace mdc {

class WriteActivity {
 public:
  // Starts the thread. `writes` and `metrics` must outlive this object.
  WriteActivity(storage::DeveloperWriteRepository& writes,
                FreshnessMetrics& metrics, absl::Duration flush_interval,
                absl::Duration refresh_interval);

  // Stops the thread, then merges what is left.
  ~WriteActivity();

  WriteActivity(const WriteActivity&) = delete;
  WriteActivity& operator=(const WriteActivity&) = delete;

  // A committed write: added to the tally of its developer, kind and day.
  void Record(const domain::WriteTally& tally) ABSL_LOCKS_EXCLUDED(mu_);

  // Merges the tallies into the database now; on failure they are kept.
  absl::Status Flush() ABSL_LOCKS_EXCLUDED(mu_);

  // Sets the freshness metric from the database's last writes.
  absl::Status RefreshMetric();

 private:
  using Key = std::tuple<int64_t, domain::RecordKind, absl::CivilDay>;

  void Loop();
  void Add(const domain::WriteTally& tally) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  storage::DeveloperWriteRepository& writes_;
  FreshnessMetrics& metrics_;
  const absl::Duration flush_interval_;
  const absl::Duration refresh_interval_;
  absl::Mutex mu_;
  absl::flat_hash_map<Key, domain::WriteTally> pending_ ABSL_GUARDED_BY(mu_);
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_WRITE_ACTIVITY_H_
