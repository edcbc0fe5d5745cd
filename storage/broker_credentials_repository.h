// The broker API credentials (one row), stored sealed: this repository only
// moves the encrypted bytes; domain/secret_box.h seals and opens
// them.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_BROKER_CREDENTIALS_REPOSITORY_H_
#define MDC_STORAGE_BROKER_CREDENTIALS_REPOSITORY_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

struct SealedBrokerCredentials {
  std::string api_key_sealed;
  std::string api_secret_sealed;
  absl::Time updated_at;
};

class BrokerCredentialsRepository {
 public:
  explicit BrokerCredentialsRepository(ConnectionPool& pool) : pool_(pool) {}

  // Stores (or replaces) the credentials; returns the time they were stored.
  absl::StatusOr<absl::Time> Put(const std::string& api_key_sealed,
                                 const std::string& api_secret_sealed);

  // The stored credentials, if any.
  absl::StatusOr<std::optional<SealedBrokerCredentials>> Get();

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_BROKER_CREDENTIALS_REPOSITORY_H_
