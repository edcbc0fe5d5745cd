// Failed dashboard sign-ins per key (a client address, or a client address
// and token: domain/sign_in.h) and minute, kept in
// PostgreSQL so that every server replica enforces one shared limit. Minutes
// are the database clock's, so replicas with skewed clocks still agree.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_SIGN_IN_REPOSITORY_H_
#define MDC_STORAGE_SIGN_IN_REPOSITORY_H_

#include <string>

#include "absl/status/statusor.h"
#include "storage/pool.h"

namespace mdc::storage {

class SignInRepository {
 public:
  explicit SignInRepository(ConnectionPool& pool) : pool_(pool) {}

  // Failed sign-ins from `client` in the current minute.
  absl::StatusOr<int> FailuresThisMinute(const std::string& client);

  // Counts one more failure from `client` in the current minute, and
  // forgets minutes long past.
  absl::Status RecordFailure(const std::string& client);

  // Failed sign-ins in the current minute under `address` and under
  // `address_token` (two different keys), in one round trip.
  struct Failures {
    int address = 0;
    int address_token = 0;
  };
  absl::StatusOr<Failures> FailuresThisMinute(const std::string& address,
                                              const std::string& address_token);

  // Counts one more failure under each of the two (different) keys in the
  // current minute, in one statement, and forgets minutes long past.
  absl::Status RecordFailure(const std::string& address,
                             const std::string& address_token);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_SIGN_IN_REPOSITORY_H_
