#include "service/auth/token_throttle.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/error_reason.h"
#include "domain/sign_in.h"

namespace mdc {

absl::Status TokenThrottle::Check(absl::string_view client_address,
                                  absl::string_view token_hash,
                                  absl::string_view reason) {
  const std::string client = domain::ClientKey(client_address);
  const absl::Time now = Now();
  absl::Time until;
  {
    absl::MutexLock lock(&mu_);
    until = state_.Refuse(client, token_hash, now);
  }
  if (until <= now) return absl::OkStatus();
  absl::Status refused = absl::ResourceExhaustedError(absl::StrCat(
      "too many unknown tokens from this client address (",
      domain::kMaxFailedTokensPerMinute,
      " in a minute); tokens in use are still accepted, others are checked "
      "at most once every ",
      absl::ToInt64Seconds(domain::kLockedProbeInterval),
      " seconds until the minute is over"));
  return domain::WithRetryDelay(domain::WithReason(refused, reason),
                                absl::Ceil(until - now, absl::Seconds(1)));
}

void TokenThrottle::Succeeded(absl::string_view token_hash) {
  const absl::Time now = Now();
  absl::MutexLock lock(&mu_);
  state_.NoteValid(token_hash, now);
}

TokenThrottle::~TokenThrottle() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](int* counting) { return *counting == 0; }, &counting_));
}

void TokenThrottle::Failed(absl::string_view client_address) {
  Count(client_address, nullptr);
}

void TokenThrottle::FailedAndWait(absl::string_view client_address) {
  auto counted = std::make_shared<absl::Notification>();
  Count(client_address, counted);
  counted->WaitForNotificationWithTimeout(absl::Seconds(5));
}

void TokenThrottle::Count(absl::string_view client_address,
                          std::shared_ptr<absl::Notification> counted) {
  std::string client = domain::ClientKey(client_address);
  {
    absl::MutexLock lock(&mu_);
    ++counting_;
  }
  failures_.RecordFailureAsync(
      client, CountedAt(),
      [this, client,
       counted = std::move(counted)](absl::StatusOr<int> failures) {
        // Told after the lock below is released, whatever happens.
        struct Notify {
          absl::Notification* n;
          ~Notify() {
            if (n != nullptr) n->Notify();
          }
        } notify{counted.get()};
        const absl::Time now = Now();
        absl::MutexLock lock(&mu_);
        --counting_;
        if (!failures.ok()) {
          // Counting is best effort: a database that cannot count cannot
          // look tokens up either, so nothing is guessed meanwhile.
          log::Debug(
              "failed token not counted",
              {{"client", client}, {"error", failures.status().message()}});
          return;
        }
        state_.NoteFailures(client, *failures, now);
      });
}

}  // namespace mdc
