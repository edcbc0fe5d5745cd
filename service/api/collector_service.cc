#include "service/api/collector_service.h"

#include <grpcpp/support/message_allocator.h>

#include <optional>
#include <utility>

#include "absl/time/clock.h"
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

// What a write of `kind` stored: when its records were observed and how
// many there are.
struct Stored {
  domain::RecordKind kind;
  absl::Time observed_at;
  int64_t records;
};

// `done`, first telling `on_write` (if any) of the write when it committed
// (the writer is known only then: the statement authenticates it).
storage::DeveloperCallback ObserveWrite(
    const CollectorService::WriteObserver& on_write, Stored stored,
    storage::DeveloperCallback done) {
  if (on_write == nullptr) return done;
  return [on_write, stored, done = std::move(done)](
             absl::StatusOr<std::optional<storage::DeveloperRecord>>
                 writer) mutable {
    if (writer.ok() && writer->has_value()) {
      domain::WriteTally tally;
      tally.developer_id = (*writer)->id;
      tally.username = (*writer)->username;
      tally.kind = stored.kind;
      tally.day = domain::TradingDay(stored.observed_at);
      tally.last_written = absl::Now();
      tally.last_observed = stored.observed_at;
      tally.records = stored.records;
      on_write(tally);
    }
    std::move(done)(std::move(writer));
  };
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
// the holder of a token hash); `stored` says what the value holds, for
// `on_write`.
template <typename Request, typename Validate, typename Describe,
          typename Store>
grpc::ServerUnaryReactor* StartSave(
    ServiceCalls& calls, grpc::CallbackServerContext* context,
    Validate validate, Describe stored,
    const CollectorService::WriteObserver& on_write, Store store) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  Request& request = RequestOf<Request>(context);
  calls.StartWrite(context, reactor, request,
                   [&]() -> absl::StatusOr<CallRunner::Write> {
                     if (auto s = RequireData(request.has_data()); !s.ok())
                       return s;
                     auto value = validate(std::move(*request.mutable_data()));
                     if (!value.ok()) return value.status();
                     const Stored what = stored(*value);
                     return CallRunner::Write(
                         [store, &on_write, what, value = *std::move(value)](
                             const std::string& token_hash,
                             storage::DeveloperCallback done) mutable {
                           store(value, token_hash,
                                 ObserveWrite(on_write, what, std::move(done)));
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
      [](const domain::ShortlistSnapshot& snapshot) {
        return Stored{domain::RecordKind::kShortlist, snapshot.observed_at, 1};
      },
      on_write_,
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
      [](const domain::NiftyObservation& nifty) {
        return Stored{domain::RecordKind::kNifty, nifty.observed_at, 1};
      },
      on_write_,
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
      [](const domain::QuoteBatch& batch) {
        return Stored{domain::RecordKind::kQuote, batch.observed_at,
                      static_cast<int64_t>(batch.quotes.size())};
      },
      on_write_,
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
