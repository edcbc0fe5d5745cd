#include "domain/field_errors.h"

#include <string>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace mdc::domain {
namespace {

constexpr absl::string_view kEllipsis = "...";

// The listed violations' share of the message; the rest is left for the
// "(and N more)" ending.
constexpr size_t kMessageListBytes = kMaxStatusMessageBytes - 64;

}  // namespace

std::string CutText(absl::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t keep = max_bytes > kEllipsis.size() ? max_bytes - kEllipsis.size() : 0;
  // Back up to the first byte of a UTF-8 character (not a continuation
  // byte 10xxxxxx), so the cut never splits one.
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) {
    --keep;
  }
  return absl::StrCat(text.substr(0, keep), kEllipsis);
}

void FieldErrors::Add(absl::string_view field, absl::string_view description) {
  ++count_;
  if (bad_request_.field_violations_size() >= kMaxFieldViolations) return;
  std::string cut_field = CutText(field, kMaxFieldPathBytes);
  std::string cut_description = CutText(description, kMaxDescriptionBytes);
  const size_t bytes = cut_field.size() + cut_description.size();
  if (listed_bytes_ + bytes > kMaxViolationBytes) return;
  listed_bytes_ += bytes;
  auto* violation = bad_request_.add_field_violations();
  violation->set_field(std::move(cut_field));
  violation->set_description(std::move(cut_description));
}

void FieldErrors::AddStatus(absl::string_view field,
                            const absl::Status& status) {
  if (!status.ok()) Add(field, status.message());
}

absl::Status FieldErrors::ToStatus() const {
  if (empty()) return absl::OkStatus();
  std::string message;
  int in_message = 0;
  for (const auto& violation : bad_request_.field_violations()) {
    const std::string part =
        absl::StrCat(violation.field(), ": ", violation.description());
    const size_t separator = message.empty() ? 0 : 2;
    if (message.size() + separator + part.size() > kMessageListBytes) {
      if (in_message == 0) {
        message = CutText(part, kMessageListBytes);
        in_message = 1;
      }
      break;
    }
    absl::StrAppend(&message, separator == 0 ? "" : "; ", part);
    ++in_message;
  }
  if (in_message < count_) {
    absl::StrAppend(&message, " (and ", count_ - in_message, " more)");
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
