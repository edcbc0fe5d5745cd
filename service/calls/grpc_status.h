// The one place where absl::Status becomes grpc::Status. absl::StatusCode
// values equal the gRPC codes; a google.rpc.BadRequest payload (see
// domain/field_errors.h) and a google.rpc.ErrorInfo reason (see
// domain/error_reason.h), alone or together, become the standard
// `grpc-status-details-bin` details, which the gateway renders as JSON
// `details`.
#ifndef MDC_SERVICE_CALLS_GRPC_STATUS_H_
#define MDC_SERVICE_CALLS_GRPC_STATUS_H_

#include <grpcpp/support/status.h>

#include "absl/status/status.h"

namespace mdc {

grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_GRPC_STATUS_H_
