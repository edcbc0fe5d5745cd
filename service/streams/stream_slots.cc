#include "service/streams/stream_slots.h"

#include <utility>

namespace mdc {

StreamSlot& StreamSlot::operator=(StreamSlot&& other) noexcept {
  if (this != &other) {
    Reset();
    owner_ = std::exchange(other.owner_, nullptr);
    kind_ = other.kind_;
    developer_ = other.developer_;
  }
  return *this;
}

void StreamSlot::Reset() {
  if (owner_ != nullptr) {
    std::exchange(owner_, nullptr)->Release(kind_, developer_);
  }
}

absl::StatusOr<StreamSlot> StreamSlots::Take(domain::StreamKind kind,
                                             const Caller& caller) {
  absl::MutexLock lock(&mu_);
  absl::Status taken = quota_.Take(kind, caller.developer_id);
  if (!taken.ok()) return taken;
  return StreamSlot(this, kind, caller.developer_id);
}

int StreamSlots::Open(domain::StreamKind kind, int64_t developer_id) {
  absl::MutexLock lock(&mu_);
  return quota_.Open(kind, developer_id);
}

void StreamSlots::Release(domain::StreamKind kind, int64_t developer_id) {
  absl::MutexLock lock(&mu_);
  quota_.Release(kind, developer_id);
}

}  // namespace mdc
