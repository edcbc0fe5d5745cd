#include "service/api/export_service.h"

#include <utility>

namespace mdc {
namespace {

// Threads that read the exports' pages. Each runs one page at a time, so
// more exports than this take turns page by page.
constexpr int kExportWorkers = 2;

}  // namespace

ExportService::ExportService(CallRunner& calls, ExportStores stores,
                             StreamSlots& slots,
                             std::optional<ReplicaStores<ExportStores>> replica)
    : calls_(calls, v1::ExportService::service_full_name()),
      reads_(stores, replica),
      slots_(slots),
      workers_(kExportWorkers) {}

grpc::ServerWriteReactor<v1::ExportChunk>* ExportService::Start(
    grpc::CallbackServerContext* context, const RpcFacts& rpc,
    std::unique_ptr<MessageSource<ExportMessage>> source) {
  return StartPagedStream<ExportMessage>(
      calls_.runner(), workers_, {slots_, domain::StreamKind::kExport}, context,
      rpc, std::move(source), {"export ended", "records_sent"});
}

grpc::ServerWriteReactor<v1::ExportChunk>* ExportService::ExportQuotes(
    grpc::CallbackServerContext* context,
    const v1::ExportQuotesRequest* request) {
  const RpcFacts& rpc = calls_.Of(*request);
  return Start(context, rpc, QuoteExport(Reader(rpc), *request));
}

grpc::ServerWriteReactor<v1::ExportChunk>* ExportService::ExportNifty(
    grpc::CallbackServerContext* context,
    const v1::ExportNiftyRequest* request) {
  const RpcFacts& rpc = calls_.Of(*request);
  return Start(context, rpc, NiftyExport(Reader(rpc), *request));
}

grpc::ServerWriteReactor<v1::ExportChunk>* ExportService::ExportShortlists(
    grpc::CallbackServerContext* context,
    const v1::ExportShortlistsRequest* request) {
  const RpcFacts& rpc = calls_.Of(*request);
  return Start(context, rpc, ShortlistExport(Reader(rpc), *request));
}

grpc::ServerWriteReactor<v1::ExportChunk>* ExportService::ExportCandles(
    grpc::CallbackServerContext* context,
    const v1::ExportCandlesRequest* request) {
  const RpcFacts& rpc = calls_.Of(*request);
  return Start(context, rpc, CandleExport(Reader(rpc), *request));
}

}  // namespace mdc
