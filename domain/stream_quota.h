// Per-developer caps on the long-lived streams one server serves at once:
// exports, day replays and watches (docs/operations.md, "Limits"). A
// stream holds memory and a worker's turns for as long as its client keeps
// it open, so one developer opening hundreds of them would take that from
// everyone; past its cap a developer's next stream is refused at once with
// RESOURCE_EXHAUSTED (reason TOO_MANY_STREAMS, a retry delay), which the
// gateway answers as 429 with Retry-After.
//
// Each server counts its own streams: N servers allow a developer up to N
// times the cap (as the rate limit, docs/architecture.md "Several
// servers").
#ifndef MDC_DOMAIN_STREAM_QUOTA_H_
#define MDC_DOMAIN_STREAM_QUOTA_H_

#include <cstdint>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/time/time.h"

namespace mdc::domain {

// The values index a table in stream_quota.cc: keep them 0, 1, 2.
enum class StreamKind { kExport = 0, kReplay = 1, kWatch = 2 };

// "exports", "replays", "watches": the metadata `kind` of the refusal.
const char* StreamKindName(StreamKind kind);

// The caps, by kind; 0 means no cap.
struct StreamLimits {
  int exports = 2;   // MDC_MAX_EXPORTS_PER_DEVELOPER
  int replays = 4;   // MDC_MAX_REPLAYS_PER_DEVELOPER
  int watches = 32;  // MDC_MAX_WATCHES_PER_DEVELOPER

  int Of(StreamKind kind) const;
};

// How long a refused caller is told to wait: streams end at their own pace.
inline constexpr absl::Duration kStreamRetryDelay = absl::Seconds(5);

// The open streams of every developer against the caps.
//
// Not thread-safe: the server's StreamSlots guards it.
class StreamQuota {
 public:
  explicit StreamQuota(StreamLimits limits) : limits_(limits) {}

  // Counts one more stream of `kind` for `developer_id`. Returns
  // RESOURCE_EXHAUSTED (reason TOO_MANY_STREAMS, metadata `kind` and
  // `limit`, a RetryInfo of kStreamRetryDelay) and counts nothing when the
  // developer already has the cap open.
  absl::Status Take(StreamKind kind, int64_t developer_id);

  // A stream Take counted has ended.
  void Release(StreamKind kind, int64_t developer_id);

  // The streams of `kind` `developer_id` has open.
  int Open(StreamKind kind, int64_t developer_id) const;

 private:
  StreamLimits limits_;
  absl::flat_hash_map<std::pair<int, int64_t>, int> open_;
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_STREAM_QUOTA_H_
