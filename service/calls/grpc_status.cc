#include "service/calls/grpc_status.h"

#include <string>

#include "domain/field_errors.h"
#include "google/rpc/status.pb.h"

namespace mdc {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  const std::string message(status.message());
  auto bad_request = status.GetPayload(domain::kBadRequestTypeUrl);
  if (!bad_request.has_value()) return grpc::Status(code, message);
  google::rpc::Status details;
  details.set_code(static_cast<int>(status.code()));
  details.set_message(message);
  auto* any = details.add_details();
  any->set_type_url(std::string(domain::kBadRequestTypeUrl));
  any->set_value(std::string(*bad_request));
  return grpc::Status(code, message, details.SerializeAsString());
}

}  // namespace mdc
