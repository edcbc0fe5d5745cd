// The places of the per-developer stream caps (domain/stream_quota.h) of one
// server, taken by exports, day replays and watches once their caller is
// authenticated and given back when the stream ends.
//
// Thread-safe.
#ifndef MDC_SERVICE_STREAMS_STREAM_SLOTS_H_
#define MDC_SERVICE_STREAMS_STREAM_SLOTS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "domain/stream_quota.h"
#include "service/auth/auth.h"

namespace mdc {

class StreamSlots;

// One stream's place; gives it back when destroyed (or reset). Move-only.
class StreamSlot {
 public:
  StreamSlot() = default;
  StreamSlot(StreamSlot&& other) noexcept { *this = std::move(other); }
  StreamSlot& operator=(StreamSlot&& other) noexcept;
  StreamSlot(const StreamSlot&) = delete;
  StreamSlot& operator=(const StreamSlot&) = delete;
  ~StreamSlot() { Reset(); }

  // Gives the place back now.
  void Reset();

 private:
  friend class StreamSlots;
  StreamSlot(StreamSlots* owner, domain::StreamKind kind, int64_t developer)
      : owner_(owner), kind_(kind), developer_(developer) {}

  StreamSlots* owner_ = nullptr;
  domain::StreamKind kind_ = domain::StreamKind::kExport;
  int64_t developer_ = 0;
};

class StreamSlots {
 public:
  explicit StreamSlots(domain::StreamLimits limits) : quota_(limits) {}

  // A place for a stream of `kind` of `caller`, or RESOURCE_EXHAUSTED
  // (TOO_MANY_STREAMS, with a retry delay) when the caller has the cap open.
  // The slots must outlive the place.
  absl::StatusOr<StreamSlot> Take(domain::StreamKind kind,
                                  const Caller& caller);

  // How many streams of `kind` `developer_id` has open (for tests).
  int Open(domain::StreamKind kind, int64_t developer_id);

 private:
  friend class StreamSlot;
  void Release(domain::StreamKind kind, int64_t developer_id);

  absl::Mutex mu_;
  domain::StreamQuota quota_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_STREAM_SLOTS_H_
