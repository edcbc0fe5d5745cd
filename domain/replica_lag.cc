#include "domain/replica_lag.h"

namespace mdc::domain {

void ReplicaLag::PrimaryWrote(absl::Time at, int64_t position) {
  samples_.push_back({at, position});
  // Older samples cannot tell more than that the standby is over `keep_`
  // behind; the newest stays, whatever its age.
  while (samples_.size() > 1 && samples_.front().at < at - keep_) {
    samples_.pop_front();
  }
}

void ReplicaLag::StandbyReplayed(int64_t replayed) {
  // The latest sample the standby has reached; the ones before it can tell
  // nothing newer any more.
  while (!samples_.empty() && samples_.front().position <= replayed) {
    if (samples_.front().at > caught_up_to_) {
      caught_up_to_ = samples_.front().at;
    }
    if (samples_.size() == 1) break;  // kept: the newest, reached again
    samples_.pop_front();
  }
}

}  // namespace mdc::domain
