#include "service/api/health_service.h"

namespace mdc {

grpc::Status HealthService::Check(grpc::ServerContext* context,
                                  const v1::HealthCheckRequest* request,
                                  v1::HealthCheckResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    const bool up = pool_.Ping().ok();
    response->set_status(up ? v1::HealthCheckResponse::SERVING
                            : v1::HealthCheckResponse::NOT_SERVING);
    response->set_database(up ? "ok" : "unreachable");
    response->set_version(MDC_VERSION);
    return absl::OkStatus();
  });
}

}  // namespace mdc
