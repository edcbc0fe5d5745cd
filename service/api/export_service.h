// mdc.v1.ExportService: the stored records of a range of trading days, and
// candles built from them, streamed a page at a time over the gRPC callback
// API (service/streams/export_sources.h); the gateway writes them as CSV,
// Parquet or NDJSON files.
#ifndef MDC_SERVICE_API_EXPORT_SERVICE_H_
#define MDC_SERVICE_API_EXPORT_SERVICE_H_

#include <optional>

#include "mdc/v1/export.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "service/replica/routed_reads.h"
#include "service/streams/export_sources.h"
#include "service/streams/stream_slots.h"
#include "service/streams/stream_workers.h"

namespace mdc {

class ExportService final : public v1::ExportService::CallbackService {
 public:
  // `stores` are over the primary's pool; `replica`, when a read replica
  // is configured, over its pool (each page of an export goes where its
  // RPC's read_from option sends market reads).
  // Exports count against `slots` (per-developer caps).
  ExportService(
      CallRunner& calls, ExportStores stores, StreamSlots& slots,
      std::optional<ReplicaStores<ExportStores>> replica = std::nullopt);

  grpc::ServerWriteReactor<v1::ExportChunk>* ExportQuotes(
      grpc::CallbackServerContext* context,
      const v1::ExportQuotesRequest* request) override;
  grpc::ServerWriteReactor<v1::ExportChunk>* ExportNifty(
      grpc::CallbackServerContext* context,
      const v1::ExportNiftyRequest* request) override;
  grpc::ServerWriteReactor<v1::ExportChunk>* ExportShortlists(
      grpc::CallbackServerContext* context,
      const v1::ExportShortlistsRequest* request) override;
  grpc::ServerWriteReactor<v1::ExportChunk>* ExportCandles(
      grpc::CallbackServerContext* context,
      const v1::ExportCandlesRequest* request) override;

 private:
  // Starts the export of `rpc` whose messages `source` makes.
  grpc::ServerWriteReactor<v1::ExportChunk>* Start(
      grpc::CallbackServerContext* context, const RpcFacts& rpc,
      std::unique_ptr<MessageSource<ExportMessage>> source);
  ExportReader Reader(const RpcFacts& rpc) const {
    return {reads_, rpc.reads_from};
  }

  ServiceCalls calls_;
  const ExportReads reads_;
  StreamSlots& slots_;
  // Declared last, so destroyed first: its threads use what is above.
  StreamWorkers workers_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_EXPORT_SERVICE_H_
