// The resource use of this process, read from /proc, for the standard
// Prometheus process metrics (process_collector.h). The parsers are plain
// functions over the files' text, unit-tested on their own.
#ifndef MDC_SERVICE_METRICS_PROCESS_STATS_H_
#define MDC_SERVICE_METRICS_PROCESS_STATS_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace mdc {

struct ProcessStats {
  double cpu_seconds = 0;     // user + system
  double resident_bytes = 0;  // RSS
  double virtual_bytes = 0;
  double threads = 0;
  double start_time_seconds = 0;  // since the Unix epoch
  double open_fds = 0;
};

// What /proc/<pid>/stat gives (every field of ProcessStats but open_fds).
// `ticks_per_second` is sysconf(_SC_CLK_TCK), `page_bytes` the page size,
// `boot_time_seconds` the btime line of /proc/stat. nullopt when `stat` is
// not in the kernel's format.
std::optional<ProcessStats> ParseProcStat(absl::string_view stat,
                                          double ticks_per_second,
                                          double page_bytes,
                                          double boot_time_seconds);

// The btime line of /proc/stat: when the system booted, in seconds since
// the Unix epoch.
std::optional<double> ParseBootTime(absl::string_view proc_stat);

// This process's stats, from /proc/self.
absl::StatusOr<ProcessStats> ReadProcessStats();

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_PROCESS_STATS_H_
