#include "service/calls/rate_limiter.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/log.h"
#include "domain/error_reason.h"

namespace mdc {
namespace {

// How often idle buckets are looked for (when calls come at all).
constexpr absl::Duration kSweepEvery = absl::Seconds(1);

}  // namespace

RateLimiter::RateLimiter(std::string what, domain::RateLimit limit, Clock clock,
                         size_t max_keys)
    : what_(std::move(what)),
      limit_(limit),
      clock_(std::move(clock)),
      max_keys_(max_keys < 1 ? 1 : max_keys) {}

absl::Status RateLimiter::Admit(absl::string_view key) {
  if (!enabled()) return absl::OkStatus();
  const absl::Time now = clock_();
  absl::MutexLock lock(&mu_);
  if (now >= next_sweep_) SweepIdle(now);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      // Uncounted until a sweep makes room (sweeping now, for every such
      // call, would cost each of them the whole table).
      if (!warned_full_) {
        log::Warning(
            "rate limit table full: new callers are not limited",
            {{"limit", what_}, {"keys", static_cast<int64_t>(max_keys_)}});
        warned_full_ = true;
      }
      return absl::OkStatus();
    }
    it = buckets_.emplace(key, domain::TokenBucket(limit_)).first;
  }
  const absl::Duration wait = it->second.Take(now);
  if (wait == absl::ZeroDuration()) return absl::OkStatus();
  return Refusal(wait);
}

size_t RateLimiter::size() const {
  absl::MutexLock lock(&mu_);
  return buckets_.size();
}

void RateLimiter::SweepIdle(absl::Time now) {
  absl::erase_if(buckets_, [now](const auto& entry) {
    return entry.second.IsFullAt(now);
  });
  next_sweep_ = now + kSweepEvery;
  warned_full_ = false;
}

absl::Status RateLimiter::Refusal(absl::Duration delay) const {
  const std::string message = absl::StrCat(
      "too many ", what_, ": a developer may make ",
      absl::StrFormat("%g", limit_.per_second), " per second (bursts of ",
      limit_.burst, "); retry after ", absl::FormatDuration(delay));
  return domain::WithRetryDelay(
      domain::WithReason(absl::ResourceExhaustedError(message),
                         domain::reason::kRateLimited, {{"limit", what_}}),
      delay);
}

}  // namespace mdc
