#include "service/domain/admin_requests.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "service/domain/field_errors.h"
#include "service/domain/time.h"

namespace mdc::domain {

absl::StatusOr<std::vector<absl::CivilDay>> ParseDateList(
    absl::string_view field,
    const google::protobuf::RepeatedPtrField<std::string>& dates) {
  FieldErrors errors;
  if (dates.empty()) {
    errors.Add(field, "is required: at least one date YYYY-MM-DD");
    return errors.ToStatus();
  }
  if (dates.size() > kMaxDatesPerRequest) {
    errors.Add(field, absl::StrCat("holds ", dates.size(),
                                   " dates; at most ", kMaxDatesPerRequest,
                                   " per request"));
    return errors.ToStatus();
  }
  std::vector<absl::CivilDay> days;
  days.reserve(dates.size());
  for (int i = 0; i < dates.size(); ++i) {
    auto day = ParseDate(dates[i]);
    if (!day.ok()) {
      errors.AddStatus(absl::StrCat(field, "[", i, "]"), day.status());
      continue;
    }
    days.push_back(*day);
  }
  if (!errors.empty()) return errors.ToStatus();
  std::sort(days.begin(), days.end());
  days.erase(std::unique(days.begin(), days.end()), days.end());
  return days;
}

absl::Status CheckBrokerCredential(absl::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError("is required");
  if (value.size() > 4096) {
    return absl::InvalidArgumentError("must be at most 4096 characters");
  }
  for (char c : value) {
    if (!absl::ascii_isgraph(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          "must be printable ASCII without blanks or control characters");
    }
  }
  return absl::OkStatus();
}

}  // namespace mdc::domain
