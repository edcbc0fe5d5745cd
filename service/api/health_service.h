// Health: mdc.v1.HealthService for HTTP (/health) and a monitor that keeps
// the standard grpc.health.v1 status in step with the database.
#ifndef MDC_SERVICE_API_HEALTH_SERVICE_H_
#define MDC_SERVICE_API_HEALTH_SERVICE_H_

#include <grpcpp/health_check_service_interface.h>

#include <thread>

#include "absl/synchronization/notification.h"
#include "mdc/v1/health.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/metrics/metrics.h"
#include "storage/pool.h"

namespace mdc {

class HealthService final : public v1::HealthService::Service {
 public:
  HealthService(CallRunner& calls, storage::ConnectionPool& pool)
      : calls_(calls), pool_(pool) {}

  // SERVING with database "ok" when a round trip to PostgreSQL succeeds,
  // else NOT_SERVING with database "unreachable". Always an OK RPC.
  grpc::Status Check(grpc::ServerContext* context,
                     const v1::HealthCheckRequest* request,
                     v1::HealthCheckResponse* response) override;

 private:
  CallRunner& calls_;
  storage::ConnectionPool& pool_;
};

// Pings the database every `interval` and publishes the result to the gRPC
// health service (all services at once) and the metrics. Stops on
// destruction.
class HealthMonitor {
 public:
  HealthMonitor(storage::ConnectionPool& pool,
                grpc::HealthCheckServiceInterface* health, Metrics& metrics,
                absl::Duration interval);
  ~HealthMonitor();

  // Marks the server NOT_SERVING for good (shutdown has begun).
  void Drain();

 private:
  void Loop();

  storage::ConnectionPool& pool_;
  grpc::HealthCheckServiceInterface* health_;
  Metrics& metrics_;
  const absl::Duration interval_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_HEALTH_SERVICE_H_
