// One per-developer rate limit (MDC_RATE_LIMIT_READS or _WRITES): a token
// bucket (domain/token_bucket.h) per key, where the key names the developer
// (CallRunner uses the hash of the bearer token, known before any database
// work, so a refused call costs the database nothing).
//
// Memory stays bounded: a bucket that has filled up again is the same as a
// new one, so idle buckets are forgotten (swept at most once a second), and
// at most `max_keys` buckets are held. When that many keys are all busy
// (a flood of distinct tokens, most of them unknown), a further key is
// admitted without being counted until a sweep frees room: the limit fails
// open for newcomers rather than locking every new developer out, and keeps
// limiting the keys it holds.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALLS_RATE_LIMITER_H_
#define MDC_SERVICE_CALLS_RATE_LIMITER_H_

#include <cstddef>
#include <functional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "domain/token_bucket.h"

namespace mdc {

class RateLimiter {
 public:
  using Clock = std::function<absl::Time()>;
  static constexpr size_t kDefaultMaxKeys = 65536;

  // `what` names the calls in messages and in the reason's metadata
  // ("reads", "writes"). A `limit` that is not enabled() admits everything.
  RateLimiter(std::string what, domain::RateLimit limit,
              Clock clock = absl::Now, size_t max_keys = kDefaultMaxKeys);

  bool enabled() const { return limit_.enabled(); }

  // OK when `key` may make one more call now (and counts it); otherwise
  // RESOURCE_EXHAUSTED with reason RATE_LIMITED (domain/error_reason.h) and
  // a RetryInfo of how long until it may, counting nothing.
  absl::Status Admit(absl::string_view key);

  // Buckets held now (for tests of the memory bound).
  size_t size() const;

 private:
  // Forgets every bucket that is full at `now`.
  void SweepIdle(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Refusal(absl::Duration delay) const;

  const std::string what_;
  const domain::RateLimit limit_;
  const Clock clock_;
  const size_t max_keys_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, domain::TokenBucket> buckets_
      ABSL_GUARDED_BY(mu_);
  absl::Time next_sweep_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  // Whether the table being full was logged since the last sweep.
  bool warned_full_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_RATE_LIMITER_H_
