// Conversions between absl::Time and google.protobuf.Timestamp.
#ifndef MDC_DOMAIN_PROTO_TIME_H_
#define MDC_DOMAIN_PROTO_TIME_H_

#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace mdc::domain {

inline void SetTimestamp(absl::Time t, google::protobuf::Timestamp* out) {
  const int64_t micros = absl::ToUnixMicros(t);
  int64_t seconds = micros / 1000000;
  int64_t remainder = micros % 1000000;
  if (remainder < 0) {
    --seconds;
    remainder += 1000000;
  }
  out->set_seconds(seconds);
  out->set_nanos(static_cast<int32_t>(remainder * 1000));
}

inline absl::Time FromTimestamp(const google::protobuf::Timestamp& t) {
  return absl::FromUnixSeconds(t.seconds()) + absl::Nanoseconds(t.nanos());
}

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_PROTO_TIME_H_
