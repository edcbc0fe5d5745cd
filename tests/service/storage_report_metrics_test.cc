// The storage report's gauges (service/metrics/storage_report_metrics.h):
// each report replaces the series whole, so a month or form no longer in
// it loses its series instead of keeping a stale value.
#include "service/metrics/storage_report_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <map>
#include <string>

namespace mdc {
namespace {

// The samples of `name`: "kind/month/form" -> value.
std::map<std::string, double> Samples(prometheus::Registry& registry,
                                      const std::string& name) {
  std::map<std::string, double> out;
  for (const auto& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const auto& metric : family.metric) {
      std::map<std::string, std::string> labels;
      for (const auto& label : metric.label) labels[label.name] = label.value;
      out[labels["kind"] + "/" + labels["month"] + "/" + labels["form"]] =
          metric.gauge.value;
    }
  }
  return out;
}

TEST(StorageReportMetrics, EachReportReplacesTheSeries) {
  prometheus::Registry registry;
  StorageReportMetrics metrics(registry);
  metrics.Replace({{"quotes", "2025-06", "rows", 1260, 950272},
                   {"nifty", "2025-06", "rows", 375, 65536}});
  EXPECT_EQ(Samples(registry, "mdc_storage_rows"),
            (std::map<std::string, double>{{"quotes/2025-06/rows", 1260},
                                           {"nifty/2025-06/rows", 375}}));
  EXPECT_EQ(Samples(registry, "mdc_storage_bytes")["quotes/2025-06/rows"],
            950272);

  // The month compacted: its rows form is gone, the compacted one new.
  metrics.Replace({{"quotes", "2025-06", "compacted", 1260, 57344},
                   {"nifty", "2025-06", "rows", 375, 65536}});
  EXPECT_EQ(Samples(registry, "mdc_storage_rows"),
            (std::map<std::string, double>{{"quotes/2025-06/compacted", 1260},
                                           {"nifty/2025-06/rows", 375}}));
  EXPECT_EQ(Samples(registry, "mdc_storage_bytes"),
            (std::map<std::string, double>{{"quotes/2025-06/compacted", 57344},
                                           {"nifty/2025-06/rows", 65536}}));

  metrics.Replace({});
  EXPECT_TRUE(Samples(registry, "mdc_storage_rows").empty());
}

}  // namespace
}  // namespace mdc
