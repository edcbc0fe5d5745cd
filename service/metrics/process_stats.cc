#include "service/metrics/process_stats.h"

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace mdc {
namespace {

// Fields of /proc/<pid>/stat (proc(5), numbered from 1), counted here from
// field 3, the first after the command name.
constexpr int kFirstField = 3;
constexpr int kUserTicks = 14;
constexpr int kSystemTicks = 15;
constexpr int kThreads = 20;
constexpr int kStartTicks = 22;
constexpr int kVirtualBytes = 23;
constexpr int kResidentPages = 24;

std::optional<std::string> ReadFile(const char* path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Open descriptors, not counting the one that lists them.
std::optional<double> CountOpenFds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  const std::string own = std::to_string(dirfd(dir));
  double count = 0;
  while (const dirent* entry = readdir(dir)) {
    const absl::string_view name = entry->d_name;
    if (name == "." || name == ".." || name == own) continue;
    ++count;
  }
  closedir(dir);
  return count;
}

}  // namespace

std::optional<ProcessStats> ParseProcStat(absl::string_view stat,
                                          double ticks_per_second,
                                          double page_bytes,
                                          double boot_time_seconds) {
  // The command name, in parentheses, may hold spaces and parentheses: the
  // fields start after the last ')'.
  const size_t close = stat.rfind(')');
  if (close == absl::string_view::npos || ticks_per_second <= 0) {
    return std::nullopt;
  }
  const std::vector<absl::string_view> fields = absl::StrSplit(
      stat.substr(close + 1), absl::ByAnyChar(" \n"), absl::SkipEmpty());
  auto field = [&](int number, double* out) {
    const size_t index = static_cast<size_t>(number - kFirstField);
    return index < fields.size() && absl::SimpleAtod(fields[index], out);
  };
  double user = 0, system = 0, threads = 0, start = 0, vsize = 0, rss = 0;
  if (!field(kUserTicks, &user) || !field(kSystemTicks, &system) ||
      !field(kThreads, &threads) || !field(kStartTicks, &start) ||
      !field(kVirtualBytes, &vsize) || !field(kResidentPages, &rss)) {
    return std::nullopt;
  }
  ProcessStats stats;
  stats.cpu_seconds = (user + system) / ticks_per_second;
  stats.threads = threads;
  stats.start_time_seconds = boot_time_seconds + start / ticks_per_second;
  stats.virtual_bytes = vsize;
  stats.resident_bytes = rss * page_bytes;
  return stats;
}

std::optional<double> ParseBootTime(absl::string_view proc_stat) {
  for (absl::string_view line : absl::StrSplit(proc_stat, '\n')) {
    if (absl::ConsumePrefix(&line, "btime ")) {
      double seconds = 0;
      if (absl::SimpleAtod(line, &seconds)) return seconds;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

absl::StatusOr<ProcessStats> ReadProcessStats() {
  // Boot time and clock rate never change: read once.
  static const std::optional<double> boot_time = []() {
    auto text = ReadFile("/proc/stat");
    return text.has_value() ? ParseBootTime(*text) : std::nullopt;
  }();
  static const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  static const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  auto text = ReadFile("/proc/self/stat");
  if (!text.has_value() || !boot_time.has_value()) {
    return absl::UnavailableError("cannot read /proc/self/stat or /proc/stat");
  }
  auto stats = ParseProcStat(*text, ticks, page, *boot_time);
  if (!stats.has_value()) {
    return absl::DataLossError("unexpected format of /proc/self/stat");
  }
  auto fds = CountOpenFds();
  if (!fds.has_value()) {
    return absl::UnavailableError("cannot list /proc/self/fd");
  }
  stats->open_fds = *fds;
  return *stats;
}

}  // namespace mdc
