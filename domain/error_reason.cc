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

namespace {

// Cuts `rpc`'s details until it serializes to at most kMaxStatusBytes:
// ErrorInfo metadata values first (a reason's metadata is short; only a
// status that quotes much client input has long ones), then field
// violations from the end (FieldErrors already bounds them, so this only
// guards statuses built another way).
void TrimToBound(google::rpc::Status& rpc) {
  for (auto& any : *rpc.mutable_details()) {
    if (any.type_url() != kErrorInfoTypeUrl) continue;
    google::rpc::ErrorInfo info;
    if (!info.ParseFromString(any.value())) continue;
    for (auto& [key, value] : *info.mutable_metadata()) {
      value = CutText(value, 256);
    }
    any.set_value(info.SerializeAsString());
  }
  for (auto& any : *rpc.mutable_details()) {
    if (rpc.ByteSizeLong() <= kMaxStatusBytes) return;
    if (any.type_url() != kBadRequestTypeUrl) continue;
    google::rpc::BadRequest bad_request;
    if (!bad_request.ParseFromString(any.value())) continue;
    const size_t others = rpc.ByteSizeLong() - any.value().size();
    while (bad_request.field_violations_size() > 0 &&
           others + bad_request.ByteSizeLong() > kMaxStatusBytes) {
      bad_request.mutable_field_violations()->RemoveLast();
    }
    any.set_value(bad_request.SerializeAsString());
  }
}

}  // namespace

google::rpc::Status ToRpcStatus(const absl::Status& status) {
  google::rpc::Status rpc;
  rpc.set_code(static_cast<int>(status.code()));
  rpc.set_message(CutText(status.message(), kMaxStatusMessageBytes));
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
  if (rpc.ByteSizeLong() > kMaxStatusBytes) TrimToBound(rpc);
  return rpc;
}

}  // namespace mdc::domain
