#include "service/metrics/freshness_metrics.h"

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <set>

namespace mdc {

FreshnessMetrics::FreshnessMetrics(prometheus::Registry& registry)
    : family_(&prometheus::BuildGauge()
                   .Name("mdc_developer_last_write_timestamp_seconds")
                   .Help("When the developer last wrote market records of the "
                         "kind, seconds since the Unix epoch (any server)")
                   .Register(registry)) {}

void FreshnessMetrics::Replace(const std::vector<LastWrite>& latest) {
  absl::MutexLock lock(&mu_);
  std::set<std::pair<std::string, std::string>> present;
  for (const LastWrite& write : latest) {
    auto key = std::make_pair(write.developer, write.kind);
    present.insert(key);
    auto [it, added] = series_.try_emplace(key, nullptr);
    if (added) {
      it->second =
          &family_->Add({{"developer", write.developer}, {"kind", write.kind}});
    }
    it->second->Set(absl::ToDoubleSeconds(write.at - absl::UnixEpoch()));
  }
  for (auto it = series_.begin(); it != series_.end();) {
    if (present.count(it->first) > 0) {
      ++it;
      continue;
    }
    family_->Remove(it->second);
    it = series_.erase(it);
  }
}

}  // namespace mdc
