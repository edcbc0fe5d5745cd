// The arithmetic of a per-developer rate limit (MDC_RATE_LIMIT_*): a token
// bucket that holds at most `burst` tokens, gains `per_second` tokens a
// second, and gives one to each call it admits. A caller that finds it empty
// is told how long until the next token.
//
// The bucket is kept as the instant it will be full again (the "theoretical
// arrival time" of GCRA, the generic cell rate algorithm), which admits
// exactly the calls a token bucket admits but with integer durations: no
// floating-point drift, and a bucket that is full needs no state at all.
// Time is always passed in, so tests drive it with any clock.
//
// RateLimit and MakeRateLimit are plain values and pure functions. A
// TokenBucket is not thread-safe: its owner (service/calls/rate_limiter.h)
// guards it.
#ifndef MDC_DOMAIN_TOKEN_BUCKET_H_
#define MDC_DOMAIN_TOKEN_BUCKET_H_

#include "absl/time/time.h"

namespace mdc::domain {

// How many calls a second one developer may make, and how many at once.
struct RateLimit {
  double per_second = 0;  // tokens gained a second; 0 (or less): no limit
  int burst = 1;          // tokens a full bucket holds, >= 1

  bool enabled() const { return per_second > 0; }
};

// The limit of `per_second` calls a second with bursts of `burst`; a burst
// of 0 (or less) means one second's worth of calls, rounded up, at least 1.
RateLimit MakeRateLimit(double per_second, int burst);

class TokenBucket {
 public:
  // A full bucket. `limit` must be enabled(); a burst below 1 counts as 1.
  explicit TokenBucket(const RateLimit& limit);

  // Takes a token at `now` when there is one and returns zero. Otherwise
  // takes nothing and returns how long from `now` until there will be one
  // (always > 0). A `now` earlier than a previous one (a clock stepped back)
  // is answered as if no time had passed since.
  absl::Duration Take(absl::Time now);

  // Whether the bucket is full at `now`: it is then the same as a new one,
  // so its owner may forget it.
  bool IsFullAt(absl::Time now) const { return full_at_ <= now; }

 private:
  absl::Duration interval_;   // the time one token takes to come back
  absl::Duration tolerance_;  // (burst - 1) tokens' worth of interval_
  absl::Time full_at_ = absl::InfinitePast();
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TOKEN_BUCKET_H_
