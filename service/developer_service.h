// mdc.v1.DeveloperService: as-of reads, timelines, candles and analytics.
#ifndef MDC_SERVICE_DEVELOPER_SERVICE_H_
#define MDC_SERVICE_DEVELOPER_SERVICE_H_

#include "mdc/v1/developer.grpc.pb.h"
#include "service/call.h"
#include "storage/repositories.h"

namespace mdc {

class DeveloperService final : public v1::DeveloperService::Service {
 public:
  DeveloperService(CallRunner& calls, storage::Repositories& repos)
      : calls_(calls), repos_(repos) {}

  grpc::Status GetList(grpc::ServerContext* context,
                       const v1::GetListRequest* request,
                       v1::Shortlist* response) override;
  grpc::Status GetNifty(grpc::ServerContext* context,
                        const v1::GetNiftyRequest* request,
                        v1::NiftyQuote* response) override;

 private:
  CallRunner& calls_;
  storage::Repositories& repos_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_DEVELOPER_SERVICE_H_
