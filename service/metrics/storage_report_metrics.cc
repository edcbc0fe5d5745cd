#include "service/metrics/storage_report_metrics.h"

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include <set>

namespace mdc {

StorageReportMetrics::StorageReportMetrics(prometheus::Registry& registry)
    : rows_(&prometheus::BuildGauge()
                 .Name("mdc_storage_rows")
                 .Help("Rows of market history by kind, month and form "
                       "(rows or compacted), at the last storage report")
                 .Register(registry)),
      bytes_(&prometheus::BuildGauge()
                  .Name("mdc_storage_bytes")
                  .Help("Bytes on disk (heap, indexes, TOAST) of market "
                        "history by kind, month and form, at the last "
                        "storage report")
                  .Register(registry)) {}

void StorageReportMetrics::Replace(
    const std::vector<storage::StorageUsage>& usage) {
  absl::MutexLock lock(&mu_);
  std::set<Key> present;
  for (const storage::StorageUsage& u : usage) {
    Key key{u.kind, u.month, u.form};
    present.insert(key);
    auto [it, added] = series_.try_emplace(key, Series{nullptr, nullptr});
    if (added) {
      const std::map<std::string, std::string> labels{
          {"kind", u.kind}, {"month", u.month}, {"form", u.form}};
      it->second = Series{&rows_->Add(labels), &bytes_->Add(labels)};
    }
    it->second.rows->Set(static_cast<double>(u.rows));
    it->second.bytes->Set(static_cast<double>(u.bytes));
  }
  for (auto it = series_.begin(); it != series_.end();) {
    if (present.count(it->first) > 0) {
      ++it;
      continue;
    }
    rows_->Remove(it->second.rows);
    bytes_->Remove(it->second.bytes);
    it = series_.erase(it);
  }
}

}  // namespace mdc
