#include "service/metrics/process_collector.h"

#include <string>
#include <utility>

#include "service/metrics/process_stats.h"

namespace mdc {
namespace {

prometheus::MetricFamily One(std::string name, std::string help,
                             prometheus::MetricType type, double value) {
  prometheus::MetricFamily family;
  family.name = std::move(name);
  family.help = std::move(help);
  family.type = type;
  prometheus::ClientMetric metric;
  if (type == prometheus::MetricType::Counter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  family.metric.push_back(std::move(metric));
  return family;
}

}  // namespace

std::vector<prometheus::MetricFamily> ProcessCollector::Collect() const {
  auto stats = ReadProcessStats();
  if (!stats.ok()) return {};
  using prometheus::MetricType;
  return {
      One("process_cpu_seconds_total",
          "Total user and system CPU time spent in seconds.",
          MetricType::Counter, stats->cpu_seconds),
      One("process_resident_memory_bytes", "Resident memory size in bytes.",
          MetricType::Gauge, stats->resident_bytes),
      One("process_virtual_memory_bytes", "Virtual memory size in bytes.",
          MetricType::Gauge, stats->virtual_bytes),
      One("process_open_fds", "Number of open file descriptors.",
          MetricType::Gauge, stats->open_fds),
      One("process_threads", "Number of OS threads in the process.",
          MetricType::Gauge, stats->threads),
      One("process_start_time_seconds",
          "Start time of the process since unix epoch in seconds.",
          MetricType::Gauge, stats->start_time_seconds),
  };
}

}  // namespace mdc
