#include "service/calls/heavy_read_gate.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/error_reason.h"

namespace mdc {
namespace {

absl::Status Refusal(absl::string_view limit, std::string message) {
  return domain::WithRetryDelay(
      domain::WithReason(absl::ResourceExhaustedError(std::move(message)),
                         domain::reason::kHeavyReadsLimited,
                         {{"limit", std::string(limit)}}),
      kHeavyReadRetryDelay);
}

}  // namespace

HeavyReadGate::Pass::Pass(Pass&& other) noexcept
    : gate_(std::exchange(other.gate_, nullptr)),
      developer_(std::move(other.developer_)) {}

HeavyReadGate::Pass::~Pass() {
  if (gate_ != nullptr) gate_->Leave(developer_);
}

HeavyReadGate::HeavyReadGate(HeavyReadLimits limits) : limits_(limits) {}

bool HeavyReadGate::TurnOf(uint64_t ticket) const {
  return running_ < limits_.server && *waiting_.begin() == ticket;
}

absl::StatusOr<HeavyReadGate::Pass> HeavyReadGate::Enter(
    absl::string_view developer, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  int& mine = per_developer_[developer];
  if (limits_.per_developer > 0 && mine >= limits_.per_developer) {
    return Refusal(
        "developer",
        absl::StrCat("too many heavy reads at once: a developer may have ",
                     limits_.per_developer,
                     " cross-sections, candles of many symbols or coverage "
                     "reads running or waiting in a server "
                     "(MDC_HEAVY_READS_PER_DEVELOPER); retry once one of "
                     "them is answered"));
  }
  ++mine;
  if (limits_.server <= 0 || (waiting_.empty() && running_ < limits_.server)) {
    ++running_;
    return Pass(this, std::string(developer));
  }
  // Behind the waiters already queued, even when a turn is free: first
  // come, first served.
  const uint64_t ticket = next_ticket_++;
  waiting_.insert(ticket);
  const absl::Time until = std::min(deadline, absl::Now() + limits_.wait);
  auto turn = [this, ticket]()
                  ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return TurnOf(ticket); };
  const bool admitted = mu_.AwaitWithDeadline(absl::Condition(&turn), until);
  waiting_.erase(ticket);
  if (!admitted) {
    Forget(std::string(developer));
    return Refusal(
        "server",
        absl::StrCat("the server is busy with heavy reads: ", limits_.server,
                     " run at once (MDC_HEAVY_READS) and this one waited ",
                     absl::FormatDuration(limits_.wait),
                     " or its deadline for its turn (MDC_HEAVY_READ_WAIT); "
                     "nothing was read, retry"));
  }
  ++running_;
  return Pass(this, std::string(developer));
}

int HeavyReadGate::running() const {
  absl::MutexLock lock(&mu_);
  return running_;
}

int HeavyReadGate::waiting() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(waiting_.size());
}

void HeavyReadGate::Leave(const std::string& developer) {
  absl::MutexLock lock(&mu_);
  --running_;
  Forget(developer);
}

void HeavyReadGate::Forget(const std::string& developer) {
  // Looked up again: the map may have grown (and moved) while the mutex
  // was released.
  auto it = per_developer_.find(developer);
  if (it != per_developer_.end() && --it->second <= 0) {
    per_developer_.erase(it);
  }
}

}  // namespace mdc
