// mdc.v1.DashboardService: sign-in, daily analytics, runs and orders.
#ifndef MDC_SERVICE_DASHBOARD_SERVICE_H_
#define MDC_SERVICE_DASHBOARD_SERVICE_H_

#include "mdc/v1/dashboard.grpc.pb.h"
#include "service/call.h"
#include "storage/repositories.h"

namespace mdc {

// RPCs not overridden here answer UNIMPLEMENTED (the generated default).
class DashboardService final : public v1::DashboardService::Service {
 public:
  DashboardService(CallRunner& calls, storage::Repositories& repos)
      : calls_(calls), repos_(repos) {}

 private:
  [[maybe_unused]] CallRunner& calls_;
  [[maybe_unused]] storage::Repositories& repos_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_DASHBOARD_SERVICE_H_
