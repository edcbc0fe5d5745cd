#include "service/api/collector_service.h"

#include <grpcpp/support/message_allocator.h>

#include <utility>

#include "domain/calendar.h"
#include "domain/field_errors.h"
#include "domain/observations.h"
#include "domain/time.h"

namespace mdc {
namespace {

// A body without "data" gets one clear message instead of one per field.
absl::Status RequireData(bool has_data) {
  if (has_data) return absl::OkStatus();
  return domain::InvalidField("data", "is required");
}

// The request of a callback call, which the handler is given as const, but
// which the call's message holder (grpc::MessageHolder, the call's allocator
// state) owns for the whole call: a handler that is done with a part of it
// may take that part instead of copying it.
template <typename Request>
Request& RequestOf(grpc::CallbackServerContext* context) {
  return *static_cast<grpc::MessageHolder<Request, google::protobuf::Empty>*>(
              context->GetRpcAllocatorState())
              ->request();
}

// Starts a collector write (CallRunner::StartWrite): `validate` turns the
// request's data into a domain value (taking the parts it keeps out of the
// request), which the write takes along to `store` (a repository upsert as
// the holder of a token hash).
template <typename Request, typename Validate, typename Store>
grpc::ServerUnaryReactor* StartSave(ServiceCalls& calls,
                                    grpc::CallbackServerContext* context,
                                    Validate validate, Store store) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  Request& request = RequestOf<Request>(context);
  calls.StartWrite(
      context, reactor, request, [&]() -> absl::StatusOr<CallRunner::Write> {
        if (auto s = RequireData(request.has_data()); !s.ok()) return s;
        auto value = validate(std::move(*request.mutable_data()));
        if (!value.ok()) return value.status();
        return CallRunner::Write([store, value = *std::move(value)](
                                     const std::string& token_hash,
                                     storage::DeveloperCallback done) mutable {
          store(value, token_hash, std::move(done));
        });
      });
  return reactor;
}

}  // namespace

grpc::ServerUnaryReactor* CollectorService::SaveShortlist(
    grpc::CallbackServerContext* context, const v1::SaveShortlistRequest*,
    google::protobuf::Empty*) {
  return StartSave<v1::SaveShortlistRequest>(
      calls_, context,
      [](v1::ShortlistData&& data) {
        return domain::ValidateShortlist(std::move(data));
      },
      [this](const domain::ShortlistSnapshot& snapshot,
             const std::string& token_hash, storage::DeveloperCallback done) {
        stores_.shortlists.Upsert(snapshot, token_hash, std::move(done));
      });
}

grpc::ServerUnaryReactor* CollectorService::SaveNifty(
    grpc::CallbackServerContext* context, const v1::SaveNiftyRequest*,
    google::protobuf::Empty*) {
  return StartSave<v1::SaveNiftyRequest>(
      calls_, context,
      [](v1::NiftyData&& data) {
        return domain::ValidateNifty(std::move(data));
      },
      [this](const domain::NiftyObservation& nifty,
             const std::string& token_hash, storage::DeveloperCallback done) {
        stores_.nifty.Upsert(nifty, token_hash, std::move(done));
      });
}

grpc::ServerUnaryReactor* CollectorService::SaveQuotes(
    grpc::CallbackServerContext* context, const v1::SaveQuotesRequest*,
    google::protobuf::Empty*) {
  return StartSave<v1::SaveQuotesRequest>(
      calls_, context,
      [](v1::QuotesData&& data) {
        return domain::ValidateQuotes(std::move(data));
      },
      [this](const domain::QuoteBatch& batch, const std::string& token_hash,
             storage::DeveloperCallback done) {
        stores_.quotes.UpsertBatch(batch, token_hash, std::move(done));
      });
}

grpc::Status CollectorService::CheckHoliday(
    grpc::ServerContext* context, const v1::CheckHolidayRequest* request,
    v1::CheckHolidayResponse* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    if (request->date().empty()) {
      return domain::InvalidField("date", "is required (YYYY-MM-DD)");
    }
    auto day = domain::ParseDate(request->date());
    if (!day.ok()) return domain::InvalidField("date", day.status().message());
    auto entry = stores_.holidays.Find(*day);
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
