// Broker credentials an admin stored through PUT /v1/admin/broker, read
// from the database and decrypted with MDC_SECRET_KEY; when none are
// stored, those of a fallback source (the environment) apply.
//
// Thread-safe.
#ifndef MDC_SERVICE_BROKER_DB_BROKER_CREDENTIALS_H_
#define MDC_SERVICE_BROKER_DB_BROKER_CREDENTIALS_H_

#include <optional>

#include "domain/secret_box.h"
#include "service/broker/broker_credentials.h"
#include "storage/broker_credentials_repository.h"

namespace mdc {

// Associated data binding each sealed value to its column.
inline constexpr char kBrokerApiKeyContext[] = "mdc broker_credentials.api_key";
inline constexpr char kBrokerApiSecretContext[] =
    "mdc broker_credentials.api_secret";

class DbBrokerCredentials final : public BrokerCredentialsSource {
 public:
  // `box` is empty when MDC_SECRET_KEY is not set; `fallback` may be null.
  DbBrokerCredentials(storage::BrokerCredentialsRepository& repository,
                      std::optional<domain::SecretBox> box,
                      BrokerCredentialsSource* fallback)
      : repository_(repository), box_(std::move(box)), fallback_(fallback) {}

  // The stored credentials; without stored ones, the fallback's (or none).
  // FAILED_PRECONDITION when stored ones cannot be decrypted (no key, or
  // another key than they were sealed with).
  absl::StatusOr<std::optional<BrokerCredentials>> Get() override;

  const domain::SecretBox* secret_box() const override {
    return box_.has_value() ? &*box_ : nullptr;
  }

 private:
  storage::BrokerCredentialsRepository& repository_;
  const std::optional<domain::SecretBox> box_;
  BrokerCredentialsSource* const fallback_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_BROKER_DB_BROKER_CREDENTIALS_H_
