// mdc.v1.DashboardService: sign-in, daily analytics, shortlists with trade
// outcomes, candles and timelines, and the caller's runs and orders.
//
// A caller sees and changes only its own runs and orders: another
// developer's run, an unknown run and a malformed run id are all NOT_FOUND
// with the same message. The read routes honour the backtest clock.
//
// Thread-safe.
#ifndef MDC_SERVICE_API_DASHBOARD_DASHBOARD_SERVICE_H_
#define MDC_SERVICE_API_DASHBOARD_DASHBOARD_SERVICE_H_

#include <optional>

#include "mdc/v1/dashboard.grpc.pb.h"
#include "service/auth/auth.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "service/replica/routed_reads.h"
#include "storage/coverage_repository.h"
#include "storage/developer_write_repository.h"
#include "storage/nifty_repository.h"
#include "storage/quote_batch_repository.h"
#include "storage/quote_repository.h"
#include "storage/run_repository.h"
#include "storage/shortlist_repository.h"

namespace mdc {

class DashboardService final : public v1::DashboardService::Service {
 public:
  // The repositories this service reads and writes, and no others.
  struct Stores {
    storage::ShortlistRepository& shortlists;
    storage::QuoteRepository& quotes;
    storage::NiftyRepository& nifty;
    storage::QuoteBatchRepository& quote_batches;
    storage::RunRepository& runs;
    storage::CoverageRepository& coverage;
    storage::DeveloperWriteRepository& developer_writes;
  };

  // `stores` are over the primary's pool; `replica`, when a read replica
  // is configured, over its pool: the market views go there while it is in
  // use (its RPC's `read_from` option, service/calls/rpc_facts.h).
  DashboardService(CallRunner& calls, Authenticator& auth, Stores stores,
                   std::optional<ReplicaStores<Stores>> replica = std::nullopt)
      : calls_(calls, v1::DashboardService::service_full_name()),
        auth_(auth),
        stores_(stores),
        reads_(stores, replica) {}

  grpc::Status SignIn(grpc::ServerContext* context,
                      const v1::SignInRequest* request,
                      v1::Developer* response) override;
  grpc::Status ListAvailableDatetimes(
      grpc::ServerContext* context,
      const v1::ListAvailableDatetimesRequest* request,
      v1::ListAvailableDatetimesResponse* response) override;
  grpc::Status GetCandles(grpc::ServerContext* context,
                          const v1::GetCandlesRequest* request,
                          v1::CandleSeries* response) override;
  grpc::Status GetDailyPersistentCompanies(
      grpc::ServerContext* context,
      const v1::GetDailyPersistentCompaniesRequest* request,
      v1::DailyPersistentCompanies* response) override;
  grpc::Status GetDailyUniqueCompanies(
      grpc::ServerContext* context,
      const v1::GetDailyUniqueCompaniesRequest* request,
      v1::DailyUniqueCompanies* response) override;
  grpc::Status GetShortlist(grpc::ServerContext* context,
                            const v1::GetShortlistRequest* request,
                            v1::DashboardShortlist* response) override;
  grpc::Status GetQuoteTimeline(grpc::ServerContext* context,
                                const v1::GetDayQuoteTimelineRequest* request,
                                v1::QuoteTimeline* response) override;
  grpc::Status GetCoverage(grpc::ServerContext* context,
                           const v1::GetCoverageRequest* request,
                           v1::Coverage* response) override;
  grpc::Status ListRuns(grpc::ServerContext* context,
                        const v1::ListRunsRequest* request,
                        v1::ListRunsResponse* response) override;
  grpc::Status ListRunTags(grpc::ServerContext* context,
                           const v1::ListRunTagsRequest* request,
                           v1::ListRunTagsResponse* response) override;
  grpc::Status CreateRun(grpc::ServerContext* context,
                         const v1::CreateRunRequest* request,
                         v1::Run* response) override;
  grpc::Status UpdateRun(grpc::ServerContext* context,
                         const v1::UpdateRunRequest* request,
                         v1::Run* response) override;
  grpc::Status DeleteRun(grpc::ServerContext* context,
                         const v1::DeleteRunRequest* request,
                         google::protobuf::Empty* response) override;
  grpc::Status ListOrders(grpc::ServerContext* context,
                          const v1::ListOrdersRequest* request,
                          v1::ListOrdersResponse* response) override;
  grpc::Status CreateOrder(grpc::ServerContext* context,
                           const v1::CreateOrderRequest* request,
                           v1::Order* response) override;

 private:
  ServiceCalls calls_;
  Authenticator& auth_;
  Stores stores_;  // the primary's: sign-in, runs and orders
  RoutedReads<Stores> reads_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_DASHBOARD_DASHBOARD_SERVICE_H_
