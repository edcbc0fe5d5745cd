// Conversions the dashboard service's files share: stored runs and orders
// to their mdc.v1 messages, and proto3 `optional` fields to std::optional.
#ifndef MDC_SERVICE_API_DASHBOARD_DASHBOARD_PROTO_H_
#define MDC_SERVICE_API_DASHBOARD_DASHBOARD_PROTO_H_

#include <optional>

#include "mdc/v1/dashboard.pb.h"
#include "storage/run_repository.h"

namespace mdc {

void ToProto(const storage::RunRecord& run, v1::Run* out);

// The order as stored; its outcome is the caller's to add.
void ToProto(const storage::OrderRecord& order, v1::Order* out);

// An optional field as read from a request: `value` when `present`.
inline std::optional<double> OptionalField(bool present, double value) {
  return present ? std::optional<double>(value) : std::nullopt;
}

}  // namespace mdc

#endif  // MDC_SERVICE_API_DASHBOARD_DASHBOARD_PROTO_H_
