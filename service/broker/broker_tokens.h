// The broker access token the service holds: handed out from the database
// while valid, fetched from the configured token endpoint when there is none
// or it has expired (daily at 06:00 IST). Only one refresh runs at a time
// across all replicas: the refresh holds a database advisory lock, re-reads
// the token under it, and only calls the endpoint when it is still needed.
//
// The stored token is sealed with the credentials source's secret box
// (MDC_SECRET_KEY, context kBrokerAccessTokenContext). Without a key the
// token is never stored (nor kept in memory: replicas share no state but the
// database): every call fetches a new one from the endpoint. A stored token
// that this server's key cannot open (sealed under another key) counts as
// none and is replaced by a fresh one.
//
// Thread-safe.
#ifndef MDC_SERVICE_BROKER_BROKER_TOKENS_H_
#define MDC_SERVICE_BROKER_BROKER_TOKENS_H_

#include <atomic>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "domain/secret_box.h"
#include "service/broker/broker_credentials.h"
#include "service/broker/http_client.h"
#include "storage/broker_token_repository.h"

namespace mdc {

// Associated data binding the sealed token to its column.
inline constexpr char kBrokerAccessTokenContext[] =
    "mdc broker_tokens.access_token";

// A token in clear, as handed to developers.
struct BrokerToken {
  std::string access_token;
  absl::Time expires_at;
  absl::Time fetched_at;
};

class BrokerTokens {
 public:
  // `token_url` empty means no broker is configured. The token is stored
  // sealed with `credentials.secret_box()`, and not stored when it is null.
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
  absl::StatusOr<BrokerToken> Current(absl::Time now);

 private:
  absl::StatusOr<std::string> Fetch();
  // The stored token opened with `box`, if it is still usable at `now` and
  // opens; nullopt otherwise.
  std::optional<BrokerToken> Usable(
      const std::optional<storage::StoredBrokerToken>& stored,
      const domain::SecretBox& box, absl::Time now);
  absl::StatusOr<BrokerToken> FetchUnstored(absl::Time now);

  storage::BrokerTokenRepository& repository_;
  BrokerCredentialsSource& credentials_;
  HttpClient& http_;
  const std::string token_url_;
  const absl::Duration timeout_;
  // Threads of one process queue here rather than each holding a database
  // connection while waiting for the advisory lock.
  absl::Mutex refresh_mu_;
  // Whether the "not stored without a key" notice was logged.
  std::atomic<bool> warned_unstored_{false};
};

}  // namespace mdc

#endif  // MDC_SERVICE_BROKER_BROKER_TOKENS_H_
