#include "service/api/import_service.h"

#include <future>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "domain/import_records.h"
#include "storage/import_repository.h"

namespace mdc {
namespace {

using storage::ImportSession;

// Records between two progress lines of an import in the log.
constexpr int64_t kProgressRecords = 1000000;

// What an import ends with when its stream did not end normally.
constexpr char kCancelled[] =
    "the import stream was cancelled before its end; nothing was stored";

// Reads every message of `reader`, validates each record with `validate`
// (records numbered across the whole stream), stages them a message at a
// time, then merges them all. Nothing is stored unless every record is
// valid and the stream ended normally (the caller half-closed it).
template <typename Request, typename Imported, typename Validate>
absl::Status Import(grpc::ServerContext* context,
                    grpc::ServerReader<Request>* reader,
                    storage::ConnectionPool& pool, ImportSession::Kind kind,
                    Validate validate, const CallContext& call,
                    v1::ImportResponse* response) {
  auto session = ImportSession::Open(pool, kind);
  if (!session.ok()) return session.status();
  // Tells the caller the import was accepted (token, role, a connection)
  // before it sends the file: the gateway waits for it, so a refused
  // caller learns nothing of what it would have sent.
  reader->SendInitialMetadata();
  Request message;
  int64_t index = 0;
  // The COPY of one message runs on a thread of its own while the next
  // message is read and checked: the database works while this thread
  // does (docs/performance.md, "Import"). One COPY at a time: the
  // session is used by one thread at a time. Declared after the session,
  // so destroyed (waited for) first.
  std::future<absl::Status> staging;
  auto staged = [&staging]() {
    return staging.valid() ? staging.get() : absl::OkStatus();
  };
  while (reader->Read(&message)) {
    if (auto size = domain::CheckImportMessageSize(message.records_size());
        !size.ok()) {
      return size;
    }
    std::vector<Imported> batch;
    batch.reserve(message.records_size());
    for (auto& record : *message.mutable_records()) {
      auto valid = validate(std::move(record), index++);
      if (!valid.ok()) return valid.status();
      batch.push_back(std::move(*valid));
    }
    if (batch.empty()) continue;
    if (auto previous = staged(); !previous.ok()) return previous;
    // Progress of a long import, in the log: a line a million records.
    if (index / kProgressRecords >
        (index - static_cast<int64_t>(batch.size())) / kProgressRecords) {
      log::Info("import staging", {{"request_id", call.request_id},
                                   {"records", absl::StrCat(index)}});
    }
    staging = std::async(std::launch::async,
                         [&stage = **session, rows = std::move(batch)] {
                           return stage.Stage(rows);
                         });
  }
  if (auto last = staged(); !last.ok()) return last;
  // Read answers false at the stream's end and when it broke off: only
  // a stream the caller ended is merged.
  if (context->IsCancelled()) return absl::CancelledError(kCancelled);
  auto counts = (*session)->Merge(call.caller.developer_id);
  if (!counts.ok()) return counts.status();
  response->set_records(index);
  response->set_written(counts->written);
  response->set_unchanged(counts->keys - counts->written);
  log::Info("import merged", {{"request_id", call.request_id},
                              {"records", absl::StrCat(index)},
                              {"written", absl::StrCat(counts->written)}});
  return absl::OkStatus();
}

}  // namespace

grpc::Status ImportService::ImportQuotes(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::ImportQuotesRequest>* reader,
    v1::ImportResponse* response) {
  return calls_.Run(
      context, v1::ImportQuotesRequest::default_instance(),
      [&](const CallContext& call) {
        return Import<v1::ImportQuotesRequest, domain::ImportedQuote>(
            context, reader, pool_, ImportSession::Kind::kQuotes,
            domain::ValidateImportedQuote, call, response);
      });
}

grpc::Status ImportService::ImportNifty(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::ImportNiftyRequest>* reader,
    v1::ImportResponse* response) {
  return calls_.Run(
      context, v1::ImportNiftyRequest::default_instance(),
      [&](const CallContext& call) {
        return Import<v1::ImportNiftyRequest, domain::ImportedNifty>(
            context, reader, pool_, ImportSession::Kind::kNifty,
            domain::ValidateImportedNifty, call, response);
      });
}

grpc::Status ImportService::ImportShortlists(
    grpc::ServerContext* context,
    grpc::ServerReader<v1::ImportShortlistsRequest>* reader,
    v1::ImportResponse* response) {
  return calls_.Run(
      context, v1::ImportShortlistsRequest::default_instance(),
      [&](const CallContext& call) {
        return Import<v1::ImportShortlistsRequest, domain::ImportedShortlist>(
            context, reader, pool_, ImportSession::Kind::kShortlists,
            domain::ValidateImportedShortlist, call, response);
      });
}

}  // namespace mdc
