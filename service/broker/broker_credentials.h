// Where the broker API credentials come from. The token refresher asks a
// BrokerCredentialsSource each time it refreshes, so credentials changed by
// an admin take effect at the next refresh.
//
// Implementations must be thread-safe.
#ifndef MDC_SERVICE_BROKER_BROKER_CREDENTIALS_H_
#define MDC_SERVICE_BROKER_BROKER_CREDENTIALS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "domain/secret_box.h"

namespace mdc {

struct BrokerCredentials {
  std::string api_key;
  std::string api_secret;
};

class BrokerCredentialsSource {
 public:
  virtual ~BrokerCredentialsSource() = default;

  // The credentials, nullopt when none are configured, or an error when
  // they cannot be read.
  virtual absl::StatusOr<std::optional<BrokerCredentials>> Get() = 0;

  // The key broker secrets are sealed with at rest (MDC_SECRET_KEY), or
  // null when this server has none. The token refresher seals the token it
  // stores with it, and stores none without it (broker_tokens.h).
  virtual const domain::SecretBox* secret_box() const { return nullptr; }
};

// Fixed credentials from the environment (MDC_BROKER_API_KEY /
// MDC_BROKER_API_SECRET): configured only when both are non-empty.
class EnvBrokerCredentials final : public BrokerCredentialsSource {
 public:
  EnvBrokerCredentials(std::string api_key, std::string api_secret)
      : api_key_(std::move(api_key)), api_secret_(std::move(api_secret)) {}

  absl::StatusOr<std::optional<BrokerCredentials>> Get() override {
    if (api_key_.empty() || api_secret_.empty()) {
      return std::optional<BrokerCredentials>();
    }
    return std::optional<BrokerCredentials>(
        BrokerCredentials{api_key_, api_secret_});
  }

 private:
  const std::string api_key_;
  const std::string api_secret_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_BROKER_BROKER_CREDENTIALS_H_
