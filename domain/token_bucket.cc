#include "domain/token_bucket.h"

#include <algorithm>
#include <cmath>

namespace mdc::domain {

RateLimit MakeRateLimit(double per_second, int burst) {
  RateLimit limit;
  limit.per_second = per_second;
  if (burst > 0) {
    limit.burst = burst;
  } else if (per_second >= 1) {
    // One second's worth; capped so the cast cannot overflow.
    limit.burst = static_cast<int>(std::min(std::ceil(per_second), 1e9));
  } else {
    limit.burst = 1;
  }
  return limit;
}

TokenBucket::TokenBucket(const RateLimit& limit)
    : interval_(absl::Seconds(1) / limit.per_second),
      tolerance_(interval_ * (std::max(limit.burst, 1) - 1)) {}

absl::Duration TokenBucket::Take(absl::Time now) {
  // full_at_ - now is how many tokens are missing, in time: the bucket has
  // one to give while at most burst - 1 are missing.
  const absl::Time base = std::max(full_at_, now);
  const absl::Duration missing = base - now;
  if (missing > tolerance_) return missing - tolerance_;
  full_at_ = base + interval_;
  return absl::ZeroDuration();
}

}  // namespace mdc::domain
