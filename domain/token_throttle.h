// The rule that slows token guessing on every authenticated route without
// locking out the valid tokens of the guesser's neighbours (clients behind
// the same NAT or proxy):
//
//  - Every well-formed token that no developer holds counts as one failure
//    of the client address that sent it, per clock minute. The count is
//    shared by every server (the database's sign_in_failures table, minutes
//    of the database clock); each server learns it from the counts its own
//    failures return.
//  - Once an address has kMaxFailedTokensPerMinute failures in a minute, a
//    server refuses its requests for the rest of that minute before looking
//    their tokens up (429, no database work), except:
//    - requests whose token this server has seen succeed within
//      kValidTokenMemory: a token that is in use is never refused for its
//      address's failures;
//    - one request every kLockedProbeInterval, which is looked up: so a
//      valid token the server has not seen yet gets in after a retry or two,
//      and a guesser gets kLockedProbeInterval's worth of guesses a minute.
//
// TokenThrottleState is that rule's memory, with time passed in so tests
// drive it. Its maps are bounded (the oldest entries go first).
//
// Not thread-safe: service/auth/token_throttle.h guards it with a mutex.
#ifndef MDC_DOMAIN_TOKEN_THROTTLE_H_
#define MDC_DOMAIN_TOKEN_THROTTLE_H_

#include <cstddef>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace mdc::domain {

// Unknown tokens one client address may send within one clock minute; the
// requests after them (with tokens not known valid) are refused until the
// minute is over.
inline constexpr int kMaxFailedTokensPerMinute = 100;

// How long a token that succeeded stays exempt from its address's lockout.
inline constexpr absl::Duration kValidTokenMemory = absl::Hours(24);

// How often a locked address may still have one token looked up.
inline constexpr absl::Duration kLockedProbeInterval = absl::Seconds(5);

class TokenThrottleState {
 public:
  // At most `max_addresses` locked addresses and `max_tokens` valid token
  // hashes are remembered.
  TokenThrottleState(size_t max_addresses = 100'000,
                     size_t max_tokens = 100'000);

  // When a request with `token_hash` from `address` may be tried again, if
  // it is refused at `now`; absl::InfinitePast() when it is not. A request
  // let through as a locked address's probe starts the next interval.
  absl::Time Refuse(absl::string_view address, absl::string_view token_hash,
                    absl::Time now);

  // Notes that `address` has `failures` failures in the minute of `now`
  // (what the database counted after recording one): at
  // kMaxFailedTokensPerMinute it is locked until that minute ends.
  void NoteFailures(absl::string_view address, int failures, absl::Time now);

  // Notes that `token_hash` was held by a developer at `now`.
  void NoteValid(absl::string_view token_hash, absl::Time now);

  size_t locked_addresses() const { return locks_.size(); }
  size_t valid_tokens() const { return valid_at_.size(); }

 private:
  // Forgets locks that ended and tokens not seen within kValidTokenMemory;
  // when a map is still full, forgets its oldest half.
  void Sweep(absl::Time now);

  struct Lock {
    absl::Time until;       // end of the minute it was locked in
    absl::Time next_probe;  // when a request may be looked up again
  };

  const size_t max_addresses_;
  const size_t max_tokens_;
  absl::flat_hash_map<std::string, Lock> locks_;
  absl::flat_hash_map<std::string, absl::Time> valid_at_;
};

// The end of the clock minute holding `t` (UTC; minutes are the same in
// every zone mdc deals with).
absl::Time EndOfMinute(absl::Time t);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TOKEN_THROTTLE_H_
