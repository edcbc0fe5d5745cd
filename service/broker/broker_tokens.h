// The broker access token the service holds: handed out from the database
// while valid, fetched from the configured token endpoint when there is none
// or it has expired (daily at 06:00 IST). Only one refresh runs at a time
// across all replicas: the refresh holds a database advisory lock, re-reads
// the token under it, and only calls the endpoint when it is still needed.
//
// Thread-safe.
#ifndef MDC_SERVICE_BROKER_BROKER_TOKENS_H_
#define MDC_SERVICE_BROKER_BROKER_TOKENS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "service/broker/broker_credentials.h"
#include "service/broker/http_client.h"
#include "storage/broker_token_repository.h"

namespace mdc {

class BrokerTokens {
 public:
  // `token_url` empty means no broker is configured.
  BrokerTokens(storage::BrokerTokenRepository& repository,
               BrokerCredentialsSource& credentials, HttpClient& http,
               std::string token_url, absl::Duration timeout)
      : repository_(repository),
        credentials_(credentials),
        http_(http),
        token_url_(std::move(token_url)),
        timeout_(timeout) {}

  // A token valid at `now`, refreshing it if need be. UNAVAILABLE with a
  // message for the caller when no endpoint or no credentials are
  // configured, or the endpoint fails (timeout, error status, bad answer).
  absl::StatusOr<storage::StoredBrokerToken> Current(absl::Time now);

 private:
  absl::StatusOr<std::string> Fetch();

  storage::BrokerTokenRepository& repository_;
  BrokerCredentialsSource& credentials_;
  HttpClient& http_;
  const std::string token_url_;
  const absl::Duration timeout_;
  // Threads of one process queue here rather than each holding a database
  // connection while waiting for the advisory lock.
  absl::Mutex refresh_mu_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_BROKER_BROKER_TOKENS_H_
