#include "service/lifecycle/health_monitor.h"

#include <utility>

#include "common/log.h"

namespace mdc {

HealthMonitor::Probe HealthMonitor::PingPool(storage::ConnectionPool& pool) {
  return [&pool] { return pool.Ping().ok(); };
}

HealthMonitor::HealthMonitor(Probe probe,
                             grpc::HealthCheckServiceInterface* health,
                             Metrics& metrics, absl::Duration interval,
                             std::vector<std::string> services)
    : probe_(std::move(probe)),
      health_(health),
      metrics_(metrics),
      interval_(interval),
      services_(std::move(services)),
      thread_([this] { Loop(); }) {}

HealthMonitor::~HealthMonitor() {
  {
    absl::MutexLock lock(&mu_);
    Stop();
  }
  thread_.join();
}

void HealthMonitor::Stop() {
  if (stopped_) return;
  stopped_ = true;
  wake_.Notify();
}

void HealthMonitor::Drain() {
  // Under the lock: a publication under way finishes first, and none starts
  // afterwards, so this NOT_SERVING is the last word.
  absl::MutexLock lock(&mu_);
  Stop();
  Publish(false);
}

void HealthMonitor::Publish(bool serving) {
  for (const std::string& service : services_) {
    health_->SetServingStatus(service, serving);
  }
  health_->SetServingStatus(serving);
}

void HealthMonitor::Loop() {
  bool last = true;
  do {
    // Outside the lock: a ping may take long and Drain must not wait for it.
    const bool up = probe_();
    {
      absl::MutexLock lock(&mu_);
      if (stopped_) return;
      Publish(up);
      metrics_.SetDatabaseUp(up);
    }
    if (up != last) {
      log::Info(up ? "database reachable again" : "database unreachable");
      last = up;
    }
  } while (!wake_.WaitForNotificationWithTimeout(interval_));
}

}  // namespace mdc
