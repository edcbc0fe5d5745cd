// The one broker access token the service holds (table broker_tokens), stored
// sealed: this repository only moves the encrypted bytes; the caller seals
// and opens them (domain/secret_box.h). And the database lock that makes sure
// only one refresh runs at a time across every replica sharing the database.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_BROKER_TOKEN_REPOSITORY_H_
#define MDC_STORAGE_BROKER_TOKEN_REPOSITORY_H_

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

struct StoredBrokerToken {
  std::string access_token_sealed;
  absl::Time expires_at;
  absl::Time fetched_at;
};

class BrokerTokenRepository {
 public:
  explicit BrokerTokenRepository(ConnectionPool& pool) : pool_(pool) {}

  // The stored token, if any (expired or not).
  absl::StatusOr<std::optional<StoredBrokerToken>> Find();

  // What a refresh may do while it holds the lock; valid only inside
  // WithRefreshLock.
  class LockedSession {
   public:
    absl::StatusOr<std::optional<StoredBrokerToken>> Find();
    // Replaces the stored token; committed when the locked body returns OK.
    absl::Status Save(const std::string& access_token_sealed,
                      absl::Time expires_at);

   private:
    friend class BrokerTokenRepository;
    explicit LockedSession(Connection& conn) : conn_(conn) {}
    Connection& conn_;
  };

  // Runs `body` in a transaction holding a PostgreSQL advisory lock (the
  // same key in every replica), waiting up to `wait` for it. Returns
  // UNAVAILABLE when another refresh held it for longer than `wait`, else
  // whatever `body` returns; what `body` saved is committed only when it
  // returns OK.
  absl::Status WithRefreshLock(
      absl::Duration wait,
      absl::FunctionRef<absl::Status(LockedSession&)> body);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_BROKER_TOKEN_REPOSITORY_H_
