#include "domain/error_reason.h"

#include <cstdint>

#include "absl/strings/cord.h"
#include "domain/field_errors.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::domain {

absl::Status WithReason(absl::Status status, absl::string_view reason,
                        const std::map<std::string, std::string>& metadata) {
  if (status.ok()) return status;
  google::rpc::ErrorInfo info;
  info.set_reason(std::string(reason));
  info.set_domain(std::string(kErrorDomain));
  info.mutable_metadata()->insert(metadata.begin(), metadata.end());
  // One payload per type URL: a second reason replaces the first.
  status.SetPayload(kErrorInfoTypeUrl, absl::Cord(info.SerializeAsString()));
  return status;
}

absl::Status WithRetryDelay(absl::Status status, absl::Duration delay) {
  if (status.ok()) return status;
  if (delay < absl::ZeroDuration()) delay = absl::ZeroDuration();
  google::rpc::RetryInfo info;
  const int64_t seconds = absl::IDivDuration(delay, absl::Seconds(1), &delay);
  info.mutable_retry_delay()->set_seconds(seconds);
  info.mutable_retry_delay()->set_nanos(
      static_cast<int32_t>(absl::ToInt64Nanoseconds(delay)));
  status.SetPayload(kRetryInfoTypeUrl, absl::Cord(info.SerializeAsString()));
  return status;
}

std::optional<absl::Duration> RetryDelayOf(const absl::Status& status) {
  auto payload = status.GetPayload(kRetryInfoTypeUrl);
  if (!payload.has_value()) return std::nullopt;
  google::rpc::RetryInfo info;
  if (!info.ParseFromString(std::string(*payload))) return std::nullopt;
  return absl::Seconds(info.retry_delay().seconds()) +
         absl::Nanoseconds(info.retry_delay().nanos());
}

std::string ReasonOf(const absl::Status& status) {
  auto payload = status.GetPayload(kErrorInfoTypeUrl);
  if (!payload.has_value()) return "";
  google::rpc::ErrorInfo info;
  if (!info.ParseFromString(std::string(*payload))) return "";
  return info.reason();
}

google::rpc::Status ToRpcStatus(const absl::Status& status) {
  google::rpc::Status rpc;
  rpc.set_code(static_cast<int>(status.code()));
  rpc.set_message(std::string(status.message()));
  // BadRequest first: it was the only detail before reasons existed, and
  // clients may read details[0].
  for (absl::string_view type_url :
       {kBadRequestTypeUrl, kErrorInfoTypeUrl, kRetryInfoTypeUrl}) {
    auto payload = status.GetPayload(type_url);
    if (!payload.has_value()) continue;
    auto* any = rpc.add_details();
    any->set_type_url(std::string(type_url));
    any->set_value(std::string(*payload));
  }
  return rpc;
}

}  // namespace mdc::domain
