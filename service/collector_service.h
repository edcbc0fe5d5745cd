// mdc.v1.CollectorService: collector writes, translated between protobuf and
// domain validation + storage.
#ifndef MDC_SERVICE_COLLECTOR_SERVICE_H_
#define MDC_SERVICE_COLLECTOR_SERVICE_H_

#include "mdc/v1/collector.grpc.pb.h"
#include "service/call.h"
#include "storage/repositories.h"

namespace mdc {

class CollectorService final : public v1::CollectorService::Service {
 public:
  CollectorService(CallRunner& calls, storage::Repositories& repos)
      : calls_(calls), repos_(repos) {}

  grpc::Status SaveShortlist(grpc::ServerContext* context,
                             const v1::SaveShortlistRequest* request,
                             google::protobuf::Empty* response) override;
  grpc::Status SaveNifty(grpc::ServerContext* context,
                         const v1::SaveNiftyRequest* request,
                         google::protobuf::Empty* response) override;
  grpc::Status SaveQuotes(grpc::ServerContext* context,
                          const v1::SaveQuotesRequest* request,
                          google::protobuf::Empty* response) override;
  grpc::Status CheckHoliday(grpc::ServerContext* context,
                            const v1::CheckHolidayRequest* request,
                            v1::CheckHolidayResponse* response) override;

 private:
  CallRunner& calls_;
  storage::Repositories& repos_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_COLLECTOR_SERVICE_H_
