// The failed-token throttle of every authenticated route and sign-in
// (the rule: domain/token_throttle.h): counts each unknown token of a client
// address in the database, shared by every server, and refuses a locked
// address's requests before their token is looked up, except tokens this
// server has seen succeed.
//
// Its clock is injectable: by default the server's for the locks and the
// database's for the shared minutes; given a Clock, that clock's time for
// both (tests set the minute instead of waiting for the next one).
//
// Thread-safe.
#ifndef MDC_SERVICE_AUTH_TOKEN_THROTTLE_H_
#define MDC_SERVICE_AUTH_TOKEN_THROTTLE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "domain/token_throttle.h"
#include "storage/sign_in_repository.h"

namespace mdc {

class TokenThrottle {
 public:
  // What time it is; must be callable from any thread.
  using Clock = std::function<absl::Time()>;

  // `clock` empty: the server's clock, and the database's for the minutes.
  explicit TokenThrottle(storage::SignInRepository& failures,
                         Clock clock = nullptr)
      : failures_(failures), clock_(std::move(clock)) {}
  // Waits for the failures still being counted, whose callbacks use it.
  ~TokenThrottle();
  TokenThrottle(const TokenThrottle&) = delete;
  TokenThrottle& operator=(const TokenThrottle&) = delete;

  // OK, or RESOURCE_EXHAUSTED with `reason`, a retry delay and a message
  // saying why, when a request from `client_address` (a gRPC peer or an
  // address, domain::ClientKey) with the token of `token_hash` is refused.
  absl::Status Check(absl::string_view client_address,
                     absl::string_view token_hash, absl::string_view reason);

  // The token of `token_hash` belongs to a developer.
  void Succeeded(absl::string_view token_hash);

  // No developer holds the token `client_address` sent: counted in the
  // database without blocking (the count it returns may lock the address a
  // moment later). For callers that must not block (the callback API).
  void Failed(absl::string_view client_address);

  // Failed, returning once the count is back (or after a few seconds), so
  // that the client's next request already meets the lock it may have
  // earned. For the synchronous handlers.
  void FailedAndWait(absl::string_view client_address);

 private:
  // Records one failure of `client_address`; `counted`, when set, is told
  // once the count is back.
  void Count(absl::string_view client_address,
             std::shared_ptr<absl::Notification> counted);

  absl::Time Now() const { return clock_ ? clock_() : absl::Now(); }
  // The instant whose minute the database counts in: none (its own clock)
  // unless a clock was given.
  std::optional<absl::Time> CountedAt() const {
    if (!clock_) return std::nullopt;
    return clock_();
  }

  storage::SignInRepository& failures_;
  const Clock clock_;
  absl::Mutex mu_;
  domain::TokenThrottleState state_ ABSL_GUARDED_BY(mu_);
  int counting_ ABSL_GUARDED_BY(mu_) = 0;  // Failed calls not answered yet
};

}  // namespace mdc

#endif  // MDC_SERVICE_AUTH_TOKEN_THROTTLE_H_
