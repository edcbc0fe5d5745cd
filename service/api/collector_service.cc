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
absl::Status DataRequired() {
  return domain::InvalidField("data", "is required");
}

// The request of a callback call, which the handler is given as const, but
// which the call's message holder (grpc::MessageHolder, the call's allocator
// state) owns for the whole call: a handler that is done with a part of it
// may take that part instead of copying it.
template <typename Request>
Request& MutableRequest(grpc::CallbackServerContext* context) {
  return *static_cast<grpc::MessageHolder<Request, google::protobuf::Empty>*>(
              context->GetRpcAllocatorState())
              ->request();
}

}  // namespace

grpc::ServerUnaryReactor* CollectorService::SaveShortlist(
    grpc::CallbackServerContext* context, const v1::SaveShortlistRequest*,
    google::protobuf::Empty*) {
  auto& request = MutableRequest<v1::SaveShortlistRequest>(context);
  WriteCall call = calls_.StartWrite(context, request);
  if (!call.open()) return call.reactor();
  if (!request.has_data()) return call.Refuse(DataRequired());
  auto snapshot = domain::ValidateShortlist(std::move(*request.mutable_data()));
  if (!snapshot.ok()) return call.Refuse(snapshot.status());
  stores_.shortlists.Upsert(*snapshot, call.token_hash(), call.Committed());
  return call.reactor();
}

grpc::ServerUnaryReactor* CollectorService::SaveNifty(
    grpc::CallbackServerContext* context, const v1::SaveNiftyRequest*,
    google::protobuf::Empty*) {
  auto& request = MutableRequest<v1::SaveNiftyRequest>(context);
  WriteCall call = calls_.StartWrite(context, request);
  if (!call.open()) return call.reactor();
  if (!request.has_data()) return call.Refuse(DataRequired());
  auto nifty = domain::ValidateNifty(std::move(*request.mutable_data()));
  if (!nifty.ok()) return call.Refuse(nifty.status());
  stores_.nifty.Upsert(*nifty, call.token_hash(), call.Committed());
  return call.reactor();
}

grpc::ServerUnaryReactor* CollectorService::SaveQuotes(
    grpc::CallbackServerContext* context, const v1::SaveQuotesRequest*,
    google::protobuf::Empty*) {
  auto& request = MutableRequest<v1::SaveQuotesRequest>(context);
  WriteCall call = calls_.StartWrite(context, request);
  if (!call.open()) return call.reactor();
  if (!request.has_data()) return call.Refuse(DataRequired());
  auto batch = domain::ValidateQuotes(std::move(*request.mutable_data()));
  if (!batch.ok()) return call.Refuse(batch.status());
  stores_.quotes.UpsertBatch(*batch, call.token_hash(), call.Committed());
  return call.reactor();
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
