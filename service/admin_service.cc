#include "service/admin_service.h"

#include "service/developer_proto.h"
#include "service/domain/developers.h"
#include "service/domain/field_errors.h"
#include "service/domain/time.h"
#include "service/domain/tokens.h"

namespace mdc {

grpc::Status AdminService::CreateDeveloper(
    grpc::ServerContext* context, const v1::CreateDeveloperRequest* request,
    v1::Developer* response) {
  return calls_.Run(
      context, "CreateDeveloper", Access::kAdmin,
      [&](const CallContext&) -> absl::Status {
        domain::FieldErrors errors;
        errors.AddStatus("username",
                         domain::CheckUsername(request->username()));
        Role role = Role::kDeveloper;
        if (!request->role().empty() && !ParseRole(request->role(), &role)) {
          errors.Add("role", "must be developer or admin");
        }
        if (!errors.empty()) return errors.ToStatus();
        const std::string token = domain::GenerateToken();
        auto created = repos_.developers.Create(
            request->username(), RoleName(role), domain::HashToken(token));
        if (!created.ok()) return created.status();
        ToProto(*created, response);
        response->set_token(token);
        return absl::OkStatus();
      });
}

grpc::Status AdminService::ListDataDates(grpc::ServerContext* context,
                                         const v1::ListDataDatesRequest*,
                                         v1::ListDataDatesResponse* response) {
  return calls_.Run(context, "ListDataDates", Access::kAdmin,
                    [&](const CallContext&) -> absl::Status {
                      auto dates = repos_.market_data.ListDates();
                      if (!dates.ok()) return dates.status();
                      for (const auto& counts : *dates) {
                        auto* date = response->add_dates();
                        date->set_date(domain::FormatDate(counts.day));
                        date->set_shortlist_count(
                            static_cast<int32_t>(counts.shortlists));
                        date->set_quote_count(
                            static_cast<int32_t>(counts.quotes));
                        date->set_nifty_count(
                            static_cast<int32_t>(counts.nifty_quotes));
                      }
                      return absl::OkStatus();
                    });
}

}  // namespace mdc
