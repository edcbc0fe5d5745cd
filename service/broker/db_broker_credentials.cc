#include "service/broker/db_broker_credentials.h"

#include "domain/error_reason.h"

namespace mdc {

absl::StatusOr<std::optional<BrokerCredentials>> DbBrokerCredentials::Get() {
  auto stored = repository_.Get();
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) {
    if (fallback_ != nullptr) return fallback_->Get();
    return std::optional<BrokerCredentials>();
  }
  if (!box_.has_value()) {
    return domain::WithReason(
        absl::FailedPreconditionError(
            "broker credentials are stored encrypted but MDC_SECRET_KEY is not "
            "set on this server"),
        domain::reason::kSecretKeyNotConfigured);
  }
  auto api_key = box_->Open((*stored)->api_key_sealed, kBrokerApiKeyContext);
  if (!api_key.ok()) return api_key.status();
  auto api_secret =
      box_->Open((*stored)->api_secret_sealed, kBrokerApiSecretContext);
  if (!api_secret.ok()) return api_secret.status();
  return std::optional<BrokerCredentials>(
      BrokerCredentials{*std::move(api_key), *std::move(api_secret)});
}

}  // namespace mdc
