// Collects what is wrong with a request, field by field, so a client learns
// every bad field at once and each message names the field and the rule.
//
// The resulting status is INVALID_ARGUMENT carrying a google.rpc.BadRequest
// payload; service/calls/grpc_status.cc turns that into the gRPC error details
// the gateway renders as `details[].fieldViolations`.
#ifndef MDC_DOMAIN_FIELD_ERRORS_H_
#define MDC_DOMAIN_FIELD_ERRORS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::domain {

// Type URL under which the BadRequest payload travels in an absl::Status.
inline constexpr absl::string_view kBadRequestTypeUrl =
    "type.googleapis.com/google.rpc.BadRequest";

// Not thread-safe; one per request.
class FieldErrors {
 public:
  // Records that `field` (a JSON path such as "data.entries[2].price")
  // breaks a rule described by `description`.
  void Add(absl::string_view field, absl::string_view description);

  // Records the message of a failed status (from a parser) under `field`.
  // Does nothing for an OK status.
  void AddStatus(absl::string_view field, const absl::Status& status);

  bool empty() const { return bad_request_.field_violations().empty(); }

  // OK when nothing was recorded; otherwise INVALID_ARGUMENT whose message is
  // "field: description; ..." with the BadRequest payload attached.
  absl::Status ToStatus() const;

 private:
  google::rpc::BadRequest bad_request_;
};

// A single bad field, as a status.
absl::Status InvalidField(absl::string_view field,
                          absl::string_view description);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_FIELD_ERRORS_H_
