#include "service/calls/grpc_status.h"

#include <string>

#include "domain/error_reason.h"
#include "google/rpc/status.pb.h"

namespace mdc {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  // Bounded (domain::kMaxStatusBytes): one caller's bad request never
  // overflows the trailers of a connection other callers share.
  const google::rpc::Status details = domain::ToRpcStatus(status);
  // Without details the trailer is left out, as before reasons existed.
  if (details.details().empty()) return grpc::Status(code, details.message());
  return grpc::Status(code, details.message(), details.SerializeAsString());
}

}  // namespace mdc
