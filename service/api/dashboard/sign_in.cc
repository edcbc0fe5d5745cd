// DashboardService: SignIn, the dashboard's exchange of a developer token for
// the developer it belongs to, with failed attempts throttled per address
// and token (and, with a higher limit, per address).
#include "domain/sign_in.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/error_reason.h"
#include "domain/field_errors.h"
#include "service/api/dashboard/dashboard_service.h"

namespace mdc {

grpc::Status DashboardService::SignIn(grpc::ServerContext* context,
                                      const v1::SignInRequest* request,
                                      v1::Developer* response) {
  return calls_.Run(
      context, "SignIn", Access::kPublic,
      [&](const CallContext& call) -> absl::Status {
        if (request->developer_token().empty()) {
          return domain::InvalidField("developerToken",
                                      "is required: the developer's token");
        }
        const std::string client = domain::ClientKey(call.client_address);
        const std::string client_token =
            domain::ClientTokenKey(client, request->developer_token());
        auto failures =
            stores_.sign_ins.FailuresThisMinute(client, client_token);
        if (!failures.ok()) return failures.status();
        if (failures->address_token >= domain::kMaxSignInFailuresPerMinute) {
          return domain::WithReason(
              absl::ResourceExhaustedError(absl::StrCat(
                  "too many failed sign-ins with this token from this "
                  "address (more than ",
                  domain::kMaxSignInFailuresPerMinute,
                  " in a minute); try again when the current minute is over")),
              domain::reason::kSignInThrottled);
        }
        if (failures->address >=
            domain::kMaxSignInFailuresPerAddressPerMinute) {
          return domain::WithReason(
              absl::ResourceExhaustedError(absl::StrCat(
                  "too many failed sign-ins from this address (more than ",
                  domain::kMaxSignInFailuresPerAddressPerMinute,
                  " in a minute); try again when the current minute is over")),
              domain::reason::kSignInThrottled);
        }
        auto caller = auth_.Identify(request->developer_token());
        if (!caller.ok()) {
          if (absl::IsUnauthenticated(caller.status())) {
            if (auto recorded =
                    stores_.sign_ins.RecordFailure(client, client_token);
                !recorded.ok()) {
              return recorded;
            }
          }
          return caller.status();
        }
        response->set_id(absl::StrCat(caller->developer_id));
        response->set_username(caller->username);
        response->set_role(RoleName(caller->role));
        return absl::OkStatus();
      });
}

}  // namespace mdc
