#include "service/developer_service.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "service/domain/as_of.h"
#include "service/domain/field_errors.h"
#include "service/domain/market_enums.h"
#include "service/domain/time.h"

namespace mdc {
namespace {

absl::Status NothingAsOf(absl::string_view what, absl::Time at) {
  return absl::NotFoundError(absl::StrCat(
      "no ", what, " stored on trading day ",
      domain::FormatDate(domain::TradingDay(at)), " at or before ",
      domain::FormatInstant(at)));
}

}  // namespace

grpc::Status DeveloperService::GetList(grpc::ServerContext* context,
                                       const v1::GetListRequest* request,
                                       v1::Shortlist* response) {
  return calls_.Run(
      context, "GetList", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto type = domain::ParseShortlistType(request->type());
        errors.AddStatus("type", type.status());
        auto scope = domain::ParseScope(request->scope());
        errors.AddStatus("scope", scope.status());
        if (!errors.empty()) return errors.ToStatus();
        auto window = domain::AsOfWindowFor(
            request->datetime(), request->timezone(), call.clock, absl::Now(),
            domain::WhenAbsent::kNow);
        if (!window.ok()) return window.status();
        auto found = repos_.shortlists.FindLatest(*type, *scope,
                                                  window->not_before,
                                                  window->at);
        if (!found.ok()) return found.status();
        if (!found->has_value()) {
          return NothingAsOf(absl::StrCat(domain::ShortlistTypeName(*type), " ",
                                          domain::ScopeName(*scope),
                                          " shortlist"),
                             window->at);
        }
        *response = **std::move(found);
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetNifty(grpc::ServerContext* context,
                                        const v1::GetNiftyRequest* request,
                                        v1::NiftyQuote* response) {
  return calls_.Run(
      context, "GetNifty", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        auto window = domain::AsOfWindowFor(
            request->datetime(), request->timezone(), call.clock, absl::Now(),
            domain::WhenAbsent::kLatestStored);
        if (!window.ok()) return window.status();
        auto found = repos_.nifty.FindLatest(window->not_before, window->at);
        if (!found.ok()) return found.status();
        if (!found->has_value()) {
          if (request->datetime().empty()) {
            return absl::NotFoundError(
                call.clock.active()
                    ? "no NIFTY quote stored before the backtest clock"
                    : "no NIFTY quote stored yet");
          }
          return NothingAsOf("NIFTY quote", window->at);
        }
        *response = **std::move(found);
        return absl::OkStatus();
      });
}

}  // namespace mdc
