// mdc.v1.CollectorService: collector writes, translated between protobuf and
// domain validation + storage.
#ifndef MDC_SERVICE_API_COLLECTOR_SERVICE_H_
#define MDC_SERVICE_API_COLLECTOR_SERVICE_H_

#include "mdc/v1/collector.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "storage/holiday_repository.h"
#include "storage/nifty_repository.h"
#include "storage/quote_repository.h"
#include "storage/shortlist_repository.h"

namespace mdc {

// The three writes use the gRPC callback API (their handlers never wait on
// the database: WriteCall, service/calls/write_call.h); CheckHoliday stays
// synchronous. A committed write is announced by storage, as one
// CommittedWrite (service/lifecycle/committed_writes.h), not here.
using CollectorServiceBase =
    v1::CollectorService::WithCallbackMethod_SaveShortlist<
        v1::CollectorService::WithCallbackMethod_SaveNifty<
            v1::CollectorService::WithCallbackMethod_SaveQuotes<
                v1::CollectorService::Service>>>;

class CollectorService final : public CollectorServiceBase {
 public:
  // The repositories this service reads and writes, and no others.
  struct Stores {
    storage::ShortlistRepository& shortlists;
    storage::NiftyRepository& nifty;
    storage::QuoteRepository& quotes;
    storage::HolidayRepository& holidays;
  };

  CollectorService(CallRunner& calls, Stores stores)
      : calls_(calls, v1::CollectorService::service_full_name()),
        stores_(stores) {}

  grpc::ServerUnaryReactor* SaveShortlist(
      grpc::CallbackServerContext* context,
      const v1::SaveShortlistRequest* request,
      google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* SaveNifty(
      grpc::CallbackServerContext* context, const v1::SaveNiftyRequest* request,
      google::protobuf::Empty* response) override;
  grpc::ServerUnaryReactor* SaveQuotes(
      grpc::CallbackServerContext* context,
      const v1::SaveQuotesRequest* request,
      google::protobuf::Empty* response) override;
  grpc::Status CheckHoliday(grpc::ServerContext* context,
                            const v1::CheckHolidayRequest* request,
                            v1::CheckHolidayResponse* response) override;

 private:
  ServiceCalls calls_;
  Stores stores_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_COLLECTOR_SERVICE_H_
