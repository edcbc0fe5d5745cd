// mdc.v1.HealthService: the health check served over HTTP (/health) through
// the gateway. (The standard grpc.health.v1 status is kept in step with the
// database by HealthMonitor, service/lifecycle/health_monitor.h.)
//
// Thread-safe.
#ifndef MDC_SERVICE_API_HEALTH_SERVICE_H_
#define MDC_SERVICE_API_HEALTH_SERVICE_H_

#include "mdc/v1/health.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "storage/pool.h"

namespace mdc {

class HealthService final : public v1::HealthService::Service {
 public:
  HealthService(CallRunner& calls, storage::ConnectionPool& pool)
      : calls_(calls, v1::HealthService::service_full_name()), pool_(pool) {}

  // SERVING with database "ok" when a round trip to PostgreSQL succeeds,
  // else NOT_SERVING with database "unreachable". Always an OK RPC.
  grpc::Status Check(grpc::ServerContext* context,
                     const v1::HealthCheckRequest* request,
                     v1::HealthCheckResponse* response) override;

 private:
  ServiceCalls calls_;
  storage::ConnectionPool& pool_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_HEALTH_SERVICE_H_
