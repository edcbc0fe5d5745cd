#include "service/collector_service.h"

#include "service/domain/calendar.h"
#include "service/domain/field_errors.h"
#include "service/domain/observations.h"
#include "service/domain/time.h"

namespace mdc {
namespace {

// A body without "data" gets one clear message instead of one per field.
absl::Status RequireData(bool has_data) {
  if (has_data) return absl::OkStatus();
  return domain::InvalidField("data", "is required");
}

}  // namespace

// Each write validates its request into a domain value that its Write
// takes along to storage.

grpc::ServerUnaryReactor* CollectorService::SaveShortlist(
    grpc::CallbackServerContext* context,
    const v1::SaveShortlistRequest* request, google::protobuf::Empty*) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  calls_.StartWrite(
      context, reactor, "SaveShortlist",
      [&]() -> absl::StatusOr<CallRunner::Write> {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        auto snapshot = domain::ValidateShortlist(request->data());
        if (!snapshot.ok()) return snapshot.status();
        return CallRunner::Write([this, snapshot = *std::move(snapshot)](
                                     const std::string& token_hash,
                                     storage::DeveloperCallback done) {
          repos_.shortlists.Upsert(snapshot, token_hash, std::move(done));
        });
      });
  return reactor;
}

grpc::ServerUnaryReactor* CollectorService::SaveNifty(
    grpc::CallbackServerContext* context, const v1::SaveNiftyRequest* request,
    google::protobuf::Empty*) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  calls_.StartWrite(
      context, reactor, "SaveNifty",
      [&]() -> absl::StatusOr<CallRunner::Write> {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        auto nifty = domain::ValidateNifty(request->data());
        if (!nifty.ok()) return nifty.status();
        return CallRunner::Write(
            [this, nifty = *std::move(nifty)](const std::string& token_hash,
                                              storage::DeveloperCallback done) {
              repos_.nifty.Upsert(nifty, token_hash, std::move(done));
            });
      });
  return reactor;
}

grpc::ServerUnaryReactor* CollectorService::SaveQuotes(
    grpc::CallbackServerContext* context, const v1::SaveQuotesRequest* request,
    google::protobuf::Empty*) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  calls_.StartWrite(
      context, reactor, "SaveQuotes",
      [&]() -> absl::StatusOr<CallRunner::Write> {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        auto batch = domain::ValidateQuotes(request->data());
        if (!batch.ok()) return batch.status();
        return CallRunner::Write(
            [this, batch = *std::move(batch)](const std::string& token_hash,
                                              storage::DeveloperCallback done) {
              repos_.quotes.UpsertBatch(batch, token_hash, std::move(done));
            });
      });
  return reactor;
}

grpc::Status CollectorService::CheckHoliday(
    grpc::ServerContext* context, const v1::CheckHolidayRequest* request,
    v1::CheckHolidayResponse* response) {
  return calls_.Run(
      context, "CheckHoliday", Access::kDeveloper,
      [&](const CallContext&) -> absl::Status {
        if (request->date().empty()) {
          return domain::InvalidField("date", "is required (YYYY-MM-DD)");
        }
        auto day = domain::ParseDate(request->date());
        if (!day.ok())
          return domain::InvalidField("date", day.status().message());
        auto entry = repos_.holidays.Find(*day);
        if (!entry.ok()) return entry.status();
        const domain::DayStatus status = domain::ClassifyDay(*day, *entry);
        response->set_date(domain::FormatDate(*day));
        response->set_is_holiday(status.is_holiday);
        response->set_name(status.name);
        response->set_is_trading_day(status.is_trading_day);
        return absl::OkStatus();
      });
}

}  // namespace mdc
