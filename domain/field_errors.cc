#include "domain/field_errors.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace mdc::domain {

void FieldErrors::Add(absl::string_view field, absl::string_view description) {
  auto* violation = bad_request_.add_field_violations();
  violation->set_field(std::string(field));
  violation->set_description(std::string(description));
}

void FieldErrors::AddStatus(absl::string_view field,
                            const absl::Status& status) {
  if (!status.ok()) Add(field, status.message());
}

absl::Status FieldErrors::ToStatus() const {
  if (empty()) return absl::OkStatus();
  std::string message;
  for (const auto& violation : bad_request_.field_violations()) {
    absl::StrAppend(&message, message.empty() ? "" : "; ", violation.field(),
                    ": ", violation.description());
  }
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kBadRequestTypeUrl,
                    absl::Cord(bad_request_.SerializeAsString()));
  return status;
}

absl::Status InvalidField(absl::string_view field,
                          absl::string_view description) {
  FieldErrors errors;
  errors.Add(field, description);
  return errors.ToStatus();
}

}  // namespace mdc::domain
