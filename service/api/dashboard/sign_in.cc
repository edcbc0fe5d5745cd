// DashboardService: SignIn, the dashboard's exchange of a developer token for
// the developer it belongs to. Failed attempts count toward the failed-token
// throttle of the client's address like a bad token on any other route
// (domain/token_throttle.h).
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "service/api/dashboard/dashboard_service.h"

namespace mdc {

grpc::Status DashboardService::SignIn(grpc::ServerContext* context,
                                      const v1::SignInRequest* request,
                                      v1::Developer* response) {
  return calls_.Run(
      context, *request, [&](const CallContext& call) -> absl::Status {
        if (request->developer_token().empty()) {
          return domain::InvalidField("developerToken",
                                      "is required: the developer's token");
        }
        auto caller =
            auth_.Identify(request->developer_token(), call.client_address);
        if (!caller.ok()) return caller.status();
        response->set_id(absl::StrCat(caller->developer_id));
        response->set_username(caller->username);
        response->set_role(RoleName(caller->role));
        return absl::OkStatus();
      });
}

}  // namespace mdc
