// mdc.v1.ImportService: records of an export streamed back in, staged with
// COPY and merged into the market tables in one transaction once the
// stream ends (storage/import_repository.h). The gateway reads the CSV,
// Parquet or NDJSON file and sends its rows (gateway internal/importfile).
//
// Served by the synchronous API: an import runs on one of the server's
// bounded threads from its first message to its commit, with one pooled
// connection, and blocks on the database like the other admin calls.
#ifndef MDC_SERVICE_API_IMPORT_SERVICE_H_
#define MDC_SERVICE_API_IMPORT_SERVICE_H_

#include "mdc/v1/import.grpc.pb.h"
#include "service/calls/call_runner.h"
#include "service/calls/service_calls.h"
#include "storage/pool.h"

namespace mdc {

class ImportService final : public v1::ImportService::Service {
 public:
  // Imports go to the primary's `pool`.
  ImportService(CallRunner& calls, storage::ConnectionPool& pool)
      : calls_(calls, v1::ImportService::service_full_name()), pool_(pool) {}

  grpc::Status ImportQuotes(grpc::ServerContext* context,
                            grpc::ServerReader<v1::ImportQuotesRequest>* reader,
                            v1::ImportResponse* response) override;
  grpc::Status ImportNifty(grpc::ServerContext* context,
                           grpc::ServerReader<v1::ImportNiftyRequest>* reader,
                           v1::ImportResponse* response) override;
  grpc::Status ImportShortlists(
      grpc::ServerContext* context,
      grpc::ServerReader<v1::ImportShortlistsRequest>* reader,
      v1::ImportResponse* response) override;

 private:
  ServiceCalls calls_;
  storage::ConnectionPool& pool_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_API_IMPORT_SERVICE_H_
