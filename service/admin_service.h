// mdc.v1.AdminService: developers and tokens, holidays, stored data,
// maintenance. Every RPC requires an admin token.
#ifndef MDC_SERVICE_ADMIN_SERVICE_H_
#define MDC_SERVICE_ADMIN_SERVICE_H_

#include "mdc/v1/admin.grpc.pb.h"
#include "service/call.h"
#include "storage/repositories.h"

namespace mdc {

class AdminService final : public v1::AdminService::Service {
 public:
  AdminService(CallRunner& calls, storage::Repositories& repos)
      : calls_(calls), repos_(repos) {}

  grpc::Status CreateDeveloper(grpc::ServerContext* context,
                               const v1::CreateDeveloperRequest* request,
                               v1::Developer* response) override;
  grpc::Status ListDataDates(grpc::ServerContext* context,
                             const v1::ListDataDatesRequest* request,
                             v1::ListDataDatesResponse* response) override;

 private:
  CallRunner& calls_;
  storage::Repositories& repos_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_ADMIN_SERVICE_H_
