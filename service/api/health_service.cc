#include "service/api/health_service.h"

#include "common/log.h"

namespace mdc {

grpc::Status HealthService::Check(grpc::ServerContext* context,
                                  const v1::HealthCheckRequest*,
                                  v1::HealthCheckResponse* response) {
  return calls_.Run(
      context, "HealthCheck", Access::kPublic,
      [&](const CallContext&) -> absl::Status {
        const bool up = pool_.Ping().ok();
        response->set_status(up ? v1::HealthCheckResponse::SERVING
                                : v1::HealthCheckResponse::NOT_SERVING);
        response->set_database(up ? "ok" : "unreachable");
        response->set_version(MDC_VERSION);
        return absl::OkStatus();
      });
}

HealthMonitor::HealthMonitor(storage::ConnectionPool& pool,
                             grpc::HealthCheckServiceInterface* health,
                             Metrics& metrics, absl::Duration interval)
    : pool_(pool),
      health_(health),
      metrics_(metrics),
      interval_(interval),
      thread_([this] { Loop(); }) {}

HealthMonitor::~HealthMonitor() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  thread_.join();
}

void HealthMonitor::Drain() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  health_->SetServingStatus(false);
}

void HealthMonitor::Loop() {
  bool last = true;
  do {
    const bool up = pool_.Ping().ok();
    if (stop_.HasBeenNotified()) break;
    health_->SetServingStatus(up);
    metrics_.SetDatabaseUp(up);
    if (up != last) {
      log::Info(up ? "database reachable again" : "database unreachable");
      last = up;
    }
  } while (!stop_.WaitForNotificationWithTimeout(interval_));
}

}  // namespace mdc
