#include "service/metrics/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include <exception>

#include "absl/strings/str_cat.h"
#include "service/metrics/freshness_metrics.h"
#include "service/metrics/process_collector.h"
#include "service/metrics/replica_metrics.h"
#include "service/metrics/storage_metrics.h"

namespace mdc {

Metrics::Metrics()
    : registry_(std::make_shared<prometheus::Registry>()),
      process_(std::make_shared<ProcessCollector>()),
      storage_(std::make_unique<StorageMetrics>(*registry_)),
      freshness_(std::make_unique<FreshnessMetrics>(*registry_)) {
  calls_ = &prometheus::BuildCounter()
                .Name("mdc_rpc_total")
                .Help("RPCs handled, by service, method and status code")
                .Register(*registry_);
  latency_ = &prometheus::BuildHistogram()
                  .Name("mdc_rpc_duration_seconds")
                  .Help(
                      "RPC handling time at the server, by service and "
                      "method")
                  .Register(*registry_);
  database_up_ = &prometheus::BuildGauge()
                      .Name("mdc_database_up")
                      .Help("1 while PostgreSQL answers health checks")
                      .Register(*registry_)
                      .Add({});
}

Metrics::~Metrics() = default;

absl::Status Metrics::Serve(const std::string& address) {
  if (address.empty()) return absl::OkStatus();
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(address);
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", address, ": ", e.what()));
  }
  exposer_->RegisterCollectable(registry_);
  exposer_->RegisterCollectable(process_);
  return absl::OkStatus();
}

Metrics::RpcSeries& Metrics::SeriesOf(absl::string_view service,
                                      absl::string_view method) {
  auto& methods = rpcs_[service];
  auto found = methods.find(method);
  if (found != methods.end()) return found->second;
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5};
  RpcSeries& series = methods[method];
  series.latency = &latency_->Add(
      {{"service", std::string(service)}, {"method", std::string(method)}},
      kBuckets);
  return series;
}

void Metrics::RecordCall(absl::string_view service, absl::string_view method,
                         absl::StatusCode code, double seconds) {
  const size_t index = static_cast<size_t>(code);
  prometheus::Counter* calls;
  prometheus::Histogram* latency;
  {
    absl::MutexLock lock(&mu_);
    RpcSeries& series = SeriesOf(service, method);
    latency = series.latency;
    calls = index < series.calls.size() ? series.calls[index] : nullptr;
    if (calls == nullptr) {
      calls = &calls_->Add({{"service", std::string(service)},
                            {"method", std::string(method)},
                            {"code", absl::StatusCodeToString(code)}});
      if (index < series.calls.size()) series.calls[index] = calls;
    }
  }
  calls->Increment();
  latency->Observe(seconds);
}

void Metrics::SetDatabaseUp(bool up) { database_up_->Set(up ? 1 : 0); }

storage::StorageObserver& Metrics::storage_observer() { return *storage_; }

ReplicaMetrics& Metrics::replica() {
  if (replica_ == nullptr) {
    replica_ = std::make_unique<ReplicaMetrics>(*registry_);
  }
  return *replica_;
}

FreshnessMetrics& Metrics::freshness() { return *freshness_; }

}  // namespace mdc
