// Failed token checks per client address and minute (domain/token_throttle.h),
// kept in PostgreSQL so that every server enforces one shared count. Minutes
// are the database clock's, so servers with skewed clocks still agree;
// a caller may name the instant instead (`at`: tests drive the throttle's
// minute with a clock of their own).
//
// Thread-safe (each call checks out its own connection or goes through the
// pool's write batcher).
#ifndef MDC_STORAGE_SIGN_IN_REPOSITORY_H_
#define MDC_STORAGE_SIGN_IN_REPOSITORY_H_

#include <optional>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

class SignInRepository {
 public:
  explicit SignInRepository(ConnectionPool& pool) : pool_(pool) {}

  // Failed token checks from `client` in the minute of `at` (absent: the
  // database clock's current minute).
  absl::StatusOr<int> FailuresThisMinute(
      const std::string& client, std::optional<absl::Time> at = std::nullopt);

  // Counts one more failure from `client` in the minute of `at` (absent:
  // the database clock's current minute), and forgets minutes long past;
  // returns the minute's count with it.
  absl::StatusOr<int> RecordFailure(
      const std::string& client, std::optional<absl::Time> at = std::nullopt);

  // RecordFailure without blocking: queued on the pool's write batcher,
  // `done` gets the count on a storage thread.
  using CountCallback = absl::AnyInvocable<void(absl::StatusOr<int>) &&>;
  void RecordFailureAsync(const std::string& client,
                          std::optional<absl::Time> at, CountCallback done);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_SIGN_IN_REPOSITORY_H_
