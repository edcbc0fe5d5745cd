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

// The writes authenticate in their own statement (CallRunner::RunWrite):
// the validated request waits in a local for `write`.

grpc::Status CollectorService::SaveShortlist(
    grpc::ServerContext* context, const v1::SaveShortlistRequest* request,
    google::protobuf::Empty*) {
  absl::StatusOr<domain::ShortlistSnapshot> snapshot;
  return calls_.RunWrite(
      context, "SaveShortlist",
      [&]() -> absl::Status {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        snapshot = domain::ValidateShortlist(request->data());
        return snapshot.status();
      },
      [&](const std::string& token_hash) {
        return repos_.shortlists.Upsert(*snapshot, token_hash);
      });
}

grpc::Status CollectorService::SaveNifty(grpc::ServerContext* context,
                                         const v1::SaveNiftyRequest* request,
                                         google::protobuf::Empty*) {
  absl::StatusOr<domain::NiftyObservation> nifty;
  return calls_.RunWrite(
      context, "SaveNifty",
      [&]() -> absl::Status {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        nifty = domain::ValidateNifty(request->data());
        return nifty.status();
      },
      [&](const std::string& token_hash) {
        return repos_.nifty.Upsert(*nifty, token_hash);
      });
}

grpc::Status CollectorService::SaveQuotes(grpc::ServerContext* context,
                                          const v1::SaveQuotesRequest* request,
                                          google::protobuf::Empty*) {
  absl::StatusOr<domain::QuoteBatch> batch;
  return calls_.RunWrite(
      context, "SaveQuotes",
      [&]() -> absl::Status {
        if (auto s = RequireData(request->has_data()); !s.ok()) return s;
        batch = domain::ValidateQuotes(request->data());
        return batch.status();
      },
      [&](const std::string& token_hash) {
        return repos_.quotes.UpsertBatch(*batch, token_hash);
      });
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
