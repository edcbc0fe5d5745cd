// Collects what is wrong with a request, field by field, so a client learns
// every bad field at once and each message names the field and the rule.
//
// The resulting status is INVALID_ARGUMENT carrying a google.rpc.BadRequest
// payload; service/calls/grpc_status.cc turns that into the gRPC error details
// the gateway renders as `details[].fieldViolations`.
//
// The status is bounded whatever the request: at most kMaxFieldViolations
// violations of at most kMaxViolationBytes together are kept (the rest are
// counted, and the message says how many), and the message is at most
// kMaxStatusMessageBytes. A request with thousands of bad items therefore
// costs no more memory than one with a hundred, and its answer fits in the
// gRPC trailers of every hop (docs/operations.md, "Limits").
#ifndef MDC_DOMAIN_FIELD_ERRORS_H_
#define MDC_DOMAIN_FIELD_ERRORS_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::domain {

// Type URL under which the BadRequest payload travels in an absl::Status.
inline constexpr absl::string_view kBadRequestTypeUrl =
    "type.googleapis.com/google.rpc.BadRequest";

// The most field violations one status lists.
inline constexpr int kMaxFieldViolations = 100;
// The most bytes of field paths and descriptions one status lists.
inline constexpr size_t kMaxViolationBytes = 6 * 1024;
// The longest field path and description kept of one violation; longer
// ones are cut (at a UTF-8 character boundary) and end with "...".
inline constexpr size_t kMaxFieldPathBytes = 200;
inline constexpr size_t kMaxDescriptionBytes = 400;
// The longest status message the server sends.
inline constexpr size_t kMaxStatusMessageBytes = 1024;

// Not thread-safe; one per request.
class FieldErrors {
 public:
  // Records that `field` (a JSON path such as "data.entries[2].price")
  // breaks a rule described by `description`. Past the bounds above it is
  // only counted.
  void Add(absl::string_view field, absl::string_view description);

  // Records the message of a failed status (from a parser) under `field`.
  // Does nothing for an OK status.
  void AddStatus(absl::string_view field, const absl::Status& status);

  bool empty() const { return count_ == 0; }

  // How many violations were recorded, listed or not.
  int count() const { return count_; }

  // OK when nothing was recorded; otherwise INVALID_ARGUMENT whose message is
  // "field: description; ..." (cut to kMaxStatusMessageBytes, ending with
  // "(and N more)" when violations are left out) with the BadRequest payload
  // of the listed violations attached.
  absl::Status ToStatus() const;

 private:
  google::rpc::BadRequest bad_request_;
  size_t listed_bytes_ = 0;
  int count_ = 0;
};

// A single bad field, as a status.
absl::Status InvalidField(absl::string_view field,
                          absl::string_view description);

// `text` cut to at most `max_bytes` bytes at a UTF-8 character boundary,
// ending with "..." when it was cut.
std::string CutText(absl::string_view text, size_t max_bytes);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_FIELD_ERRORS_H_
