// Conversions between absl::Time and google.protobuf.Timestamp.
#ifndef MDC_DOMAIN_PROTO_TIME_H_
#define MDC_DOMAIN_PROTO_TIME_H_

#include <algorithm>
#include <cstdint>

#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace mdc::domain {

// The range a google.protobuf.Timestamp may carry (its JSON form, RFC 3339,
// has four-digit years): 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999999999Z.
inline constexpr int64_t kMinTimestampSeconds = -62135596800;
inline constexpr int64_t kMaxTimestampSeconds = 253402300799;

// Sets `out` to `t`. Total: an instant outside the Timestamp range (a row
// stored before the supported range of domain/time.h was enforced) is
// clamped to the nearest end of it, so a response holding it still encodes
// (an out-of-range Timestamp fails JSON encoding, a 500). Returns false when
// it clamped, for the caller to log.
inline bool SetTimestamp(absl::Time t, google::protobuf::Timestamp* out) {
  const absl::Time min = absl::FromUnixSeconds(kMinTimestampSeconds);
  const absl::Time max = absl::FromUnixSeconds(kMaxTimestampSeconds) +
                         absl::Nanoseconds(999999999);
  const bool in_range = t >= min && t <= max;
  const int64_t micros = absl::ToUnixMicros(std::clamp(t, min, max));
  int64_t seconds = micros / 1000000;
  int64_t remainder = micros % 1000000;
  if (remainder < 0) {
    --seconds;
    remainder += 1000000;
  }
  out->set_seconds(seconds);
  out->set_nanos(static_cast<int32_t>(remainder * 1000));
  return in_range;
}

inline absl::Time FromTimestamp(const google::protobuf::Timestamp& t) {
  return absl::FromUnixSeconds(t.seconds()) + absl::Nanoseconds(t.nanos());
}

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_PROTO_TIME_H_
