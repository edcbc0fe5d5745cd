#include "service/lifecycle/write_activity.h"

#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/time.h"

namespace mdc {

WriteActivity::WriteActivity(storage::DeveloperWriteRepository& writes,
                             FreshnessMetrics& metrics,
                             absl::Duration flush_interval,
                             absl::Duration refresh_interval)
    : writes_(writes),
      metrics_(metrics),
      flush_interval_(flush_interval),
      refresh_interval_(refresh_interval),
      thread_([this] { Loop(); }) {}

WriteActivity::~WriteActivity() {
  stop_.Notify();
  thread_.join();
  if (auto flushed = Flush(); !flushed.ok()) {
    log::Warning("the last write tallies were not recorded",
                 {{"error", flushed.ToString()}});
  }
}

void WriteActivity::Add(const domain::WriteTally& tally) {
  auto [it, added] = pending_.try_emplace(
      Key{tally.developer_id, tally.kind, tally.day}, tally);
  if (!added) domain::MergeTally(it->second, tally);
}

void WriteActivity::Record(const domain::WriteTally& tally) {
  absl::MutexLock lock(&mu_);
  Add(tally);
}

absl::Status WriteActivity::Flush() {
  absl::flat_hash_map<Key, domain::WriteTally> taken;
  {
    absl::MutexLock lock(&mu_);
    taken.swap(pending_);
  }
  if (taken.empty()) return absl::OkStatus();
  std::vector<domain::WriteTally> tallies;
  tallies.reserve(taken.size());
  for (auto& [key, tally] : taken) tallies.push_back(tally);
  absl::Status merged = writes_.Merge(tallies);
  if (!merged.ok()) {
    // Kept for the next flush, together with what arrived meanwhile.
    absl::MutexLock lock(&mu_);
    for (const domain::WriteTally& tally : tallies) Add(tally);
  }
  return merged;
}

absl::Status WriteActivity::RefreshMetric() {
  auto summaries = writes_.Summaries(domain::TradingDay(absl::Now()));
  if (!summaries.ok()) return summaries.status();
  std::vector<FreshnessMetrics::LastWrite> latest;
  latest.reserve(summaries->size());
  for (const storage::WriterSummary& s : *summaries) {
    latest.push_back(FreshnessMetrics::LastWrite{
        s.username, std::string(domain::RecordKindName(s.kind)),
        s.last_written});
  }
  metrics_.Replace(latest);
  return absl::OkStatus();
}

void WriteActivity::Loop() {
  absl::Time refreshed = absl::InfinitePast();
  bool warned = false;  // one warning per outage, not one per second
  do {
    absl::Status status = Flush();
    if (status.ok() && absl::Now() - refreshed >= refresh_interval_) {
      status = RefreshMetric();
      if (status.ok()) refreshed = absl::Now();
    }
    if (!status.ok() && !warned) {
      log::Warning("collector freshness not recorded; trying again",
                   {{"error", status.ToString()}});
    }
    warned = !status.ok();
  } while (!stop_.WaitForNotificationWithTimeout(flush_interval_));
}

}  // namespace mdc
