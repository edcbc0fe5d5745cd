#include "service/domain/developers.h"

#include "absl/strings/ascii.h"

namespace mdc::domain {

absl::Status CheckUsername(absl::string_view username) {
  bool ok = !username.empty() && username.size() <= 64;
  for (char c : username) {
    ok = ok && (absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
                c == '_' || c == '.' || c == '-');
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(
      username.empty() ? "is required: 1-64 characters of A-Z a-z 0-9 _ . -"
                       : "must be 1-64 characters of A-Z a-z 0-9 _ . -");
}

}  // namespace mdc::domain
