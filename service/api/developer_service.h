// mdc.v1.DeveloperService: as-of reads, timelines, candles and analytics.
#ifndef MDC_SERVICE_API_DEVELOPER_SERVICE_H_
#define MDC_SERVICE_API_DEVELOPER_SERVICE_H_

#include <optional>

#include "mdc/v1/developer.grpc.pb.h"
#include "service/broker/broker_tokens.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "service/replica/routed_reads.h"
#include "storage/holiday_repository.h"
#include "storage/instrument_repository.h"
#include "storage/nifty_repository.h"
#include "storage/quote_batch_repository.h"
#include "storage/quote_repository.h"
#include "storage/shortlist_repository.h"

namespace mdc {

class DeveloperService final : public v1::DeveloperService::Service {
 public:
  // The repositories this service reads and writes, and no others.
  struct Stores {
    storage::ShortlistRepository& shortlists;
    storage::NiftyRepository& nifty;
    storage::QuoteRepository& quotes;
    storage::HolidayRepository& holidays;
    storage::QuoteBatchRepository& quote_batches;
    storage::InstrumentRepository& instruments;
  };

  // `stores` are over the primary's pool; `replica`, when a read replica
  // is configured, over its pool: the market reads go there while it is
  // in use (its RPC's `read_from` option, service/calls/rpc_facts.h).
  DeveloperService(CallRunner& calls, Stores stores,
                   BrokerTokens& broker_tokens,
                   std::optional<ReplicaStores<Stores>> replica = std::nullopt)
      : calls_(calls, v1::DeveloperService::service_full_name()),
        reads_(stores, replica),
        broker_tokens_(broker_tokens) {}

  grpc::Status GetList(grpc::ServerContext* context,
                       const v1::GetListRequest* request,
                       v1::Shortlist* response) override;
  grpc::Status GetQuote(grpc::ServerContext* context,
                        const v1::GetQuoteRequest* request,
                        v1::StockQuote* response) override;
  grpc::Status GetQuoteTimeline(grpc::ServerContext* context,
                                const v1::GetQuoteTimelineRequest* request,
                                v1::QuoteTimeline* response) override;
  grpc::Status GetNifty(grpc::ServerContext* context,
                        const v1::GetNiftyRequest* request,
                        v1::NiftyQuote* response) override;
  grpc::Status GetNiftyTimeline(grpc::ServerContext* context,
                                const v1::GetNiftyTimelineRequest* request,
                                v1::NiftyTimeline* response) override;
  grpc::Status GetHistoricalCandles(
      grpc::ServerContext* context,
      const v1::GetHistoricalCandlesRequest* request,
      v1::CandleSeries* response) override;
  grpc::Status GetQuotes(grpc::ServerContext* context,
                         const v1::GetQuotesRequest* request,
                         v1::QuoteCrossSection* response) override;
  grpc::Status GetCandlesOfSymbols(
      grpc::ServerContext* context,
      const v1::GetCandlesOfSymbolsRequest* request,
      v1::CandlesOfSymbols* response) override;
  grpc::Status GetShortlistPersistence(
      grpc::ServerContext* context,
      const v1::GetShortlistPersistenceRequest* request,
      v1::ShortlistPersistence* response) override;
  grpc::Status GetBrokerToken(grpc::ServerContext* context,
                              const v1::GetBrokerTokenRequest* request,
                              v1::BrokerToken* response) override;
  grpc::Status ListHolidays(grpc::ServerContext* context,
                            const v1::ListHolidaysRequest* request,
                            v1::ListHolidaysResponse* response) override;
  grpc::Status ListInstruments(grpc::ServerContext* context,
                               const v1::ListInstrumentsRequest* request,
                               v1::ListInstrumentsResponse* response) override;
  grpc::Status ListCorporateActions(
      grpc::ServerContext* context,
      const v1::ListCorporateActionsRequest* request,
      v1::ListCorporateActionsResponse* response) override;

 private:
  // Price points read per round trip while building one symbol's candles,
  // so memory stays bounded whatever the range.
  static constexpr int kCandleScanPage = 20000;

  ServiceCalls calls_;
  RoutedReads<Stores> reads_;
  BrokerTokens& broker_tokens_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_DEVELOPER_SERVICE_H_
