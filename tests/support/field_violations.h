// What a status's google.rpc.BadRequest payload (domain/field_errors.h)
// says, for tests that check which fields a request broke and why.
#ifndef MDC_TESTS_SUPPORT_FIELD_VIOLATIONS_H_
#define MDC_TESTS_SUPPORT_FIELD_VIOLATIONS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "domain/field_errors.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::testing {

// (field, description) of every violation `status` carries, in order.
inline std::vector<std::pair<std::string, std::string>> FieldViolations(
    const absl::Status& status) {
  std::vector<std::pair<std::string, std::string>> out;
  auto payload = status.GetPayload(domain::kBadRequestTypeUrl);
  if (!payload.has_value()) return out;
  google::rpc::BadRequest bad;
  bad.ParseFromString(std::string(*payload));
  for (const auto& v : bad.field_violations()) {
    out.emplace_back(v.field(), v.description());
  }
  return out;
}

// The fields of FieldViolations(status), in order.
inline std::vector<std::string> ViolatedFields(const absl::Status& status) {
  std::vector<std::string> fields;
  for (auto& [field, description] : FieldViolations(status)) {
    fields.push_back(field);
  }
  return fields;
}

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_FIELD_VIOLATIONS_H_
