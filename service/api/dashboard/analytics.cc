// DashboardService: the daily analytics of stored shortlists (companies that
// stayed in a shortlist, companies that appeared at all) and the dates and
// instants that hold any.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/civil_time.h"
#include "domain/daily_analytics.h"
#include "domain/dashboard_requests.h"
#include "domain/day_reads.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "service/api/dashboard/dashboard_proto.h"
#include "service/api/dashboard/dashboard_service.h"

namespace mdc {

grpc::Status DashboardService::ListAvailableDatetimes(
    grpc::ServerContext* context,
    const v1::ListAvailableDatetimesRequest* request,
    v1::ListAvailableDatetimesResponse* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        std::optional<absl::CivilDay> asked;
        if (!request->date().empty()) {
          auto day = domain::ParseDate(request->date());
          errors.AddStatus("date", day.status());
          if (day.ok()) asked = *day;
        }
        // One list only: a type (its scope TOP_5 unless given), or a
        // scope of every type.
        std::optional<storage::ShortlistRepository::ListKey> list;
        if (!request->type().empty()) {
          const domain::ShortlistKind kind = domain::ParseShortlistKind(
              request->type(), request->scope(), errors);
          list = storage::ShortlistRepository::ListKey{kind.type, kind.scope};
        } else if (!request->scope().empty()) {
          auto scope = domain::ParseScope(request->scope());
          errors.AddStatus("scope", scope.status());
          if (scope.ok()) {
            list = storage::ShortlistRepository::ListKey{
                v1::SHORTLIST_TYPE_UNSPECIFIED, *scope};
          }
        }
        if (!errors.empty()) return errors.ToStatus();
        const absl::Time not_after =
            call.clock.LatestVisible(domain::FarFuture());
        auto days = stores.shortlists.ListDays(not_after, list);
        if (!days.ok()) return days.status();
        for (const auto& day : *days) {
          v1::AvailableDate* out = response->add_dates();
          out->set_date(domain::FormatDate(day.day));
          out->set_count(day.instants);
          if (asked.has_value() && *asked == day.day) {
            auto instants =
                stores.shortlists.ListDayInstants(day.day, not_after, list);
            if (!instants.ok()) return instants.status();
            for (absl::Time t : *instants) {
              domain::SetTimestamp(t, out->add_timestamps());
            }
          }
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetDailyPersistentCompanies(
    grpc::ServerContext* context,
    const v1::GetDailyPersistentCompaniesRequest* request,
    v1::DailyPersistentCompanies* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto day = domain::RequiredDate(request->date(), "date", errors);
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        auto min_percentage = domain::MinPercentageOrDefault(OptionalField(
            request->has_min_percentage(), request->min_percentage()));
        errors.AddStatus("minPercentage", min_percentage.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = domain::DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        auto snapshots = stores.shortlists.ListDaySnapshots(
            kind.type, kind.scope, *day, *limit);
        if (!snapshots.ok()) return snapshots.status();
        const domain::DailyPersistence result =
            domain::PersistentCompanies(*snapshots, *min_percentage);
        response->set_date(domain::FormatDate(*day));
        response->set_type(kind.type);
        response->set_scope(kind.scope);
        response->set_total_snapshots(result.total_snapshots);
        for (const auto& company : result.companies) {
          v1::PersistentCompany* out = response->add_companies();
          out->set_nse_symbol(company.nse_symbol);
          out->set_name(company.name);
          out->set_count(company.count);
          out->set_percentage(company.percentage);
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetDailyUniqueCompanies(
    grpc::ServerContext* context,
    const v1::GetDailyUniqueCompaniesRequest* request,
    v1::DailyUniqueCompanies* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto day = domain::RequiredDate(request->date(), "date", errors);
        // No type means every type.
        v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
        if (!request->type().empty()) {
          auto parsed = domain::ParseShortlistType(request->type());
          errors.AddStatus("type", parsed.status());
          if (parsed.ok()) type = *parsed;
        }
        auto scope = domain::ParseScope(request->scope());
        errors.AddStatus("scope", scope.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = domain::DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        auto snapshots =
            stores.shortlists.ListDaySnapshots(type, *scope, *day, *limit);
        if (!snapshots.ok()) return snapshots.status();
        const std::vector<std::string> symbols =
            domain::UniqueSymbols(*snapshots);
        response->set_date(domain::FormatDate(*day));
        response->set_type(type);
        response->set_scope(*scope);
        response->set_unique_count(static_cast<int32_t>(symbols.size()));
        for (const auto& symbol : symbols) response->add_symbols(symbol);
        return absl::OkStatus();
      });
}

}  // namespace mdc
