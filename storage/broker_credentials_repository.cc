#include "storage/broker_credentials_repository.h"

namespace mdc::storage {
namespace {

// New credentials invalidate the token fetched with the old ones, in the
// same statement, so the next Token call refreshes with the new ones.
constexpr Statement kPut{
    "broker_credentials_put",
    "WITH forget_token AS (DELETE FROM broker_tokens) "
    "INSERT INTO broker_credentials (id, api_key_sealed, api_secret_sealed, "
    "updated_at) VALUES (true, $1, $2, now()) "
    "ON CONFLICT (id) DO UPDATE SET api_key_sealed = EXCLUDED.api_key_sealed, "
    "api_secret_sealed = EXCLUDED.api_secret_sealed, updated_at = now() "
    "RETURNING updated_at"};
constexpr Statement kGet{"broker_credentials_get",
                         "SELECT api_key_sealed, api_secret_sealed, updated_at "
                         "FROM broker_credentials"};

}  // namespace

absl::StatusOr<absl::Time> BrokerCredentialsRepository::Put(
    const std::string& api_key_sealed, const std::string& api_secret_sealed) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(
      kPut, Params().Bytes(api_key_sealed).Bytes(api_secret_sealed));
  if (!result.ok()) return result.status();
  return result->Time(0, 0);
}

absl::StatusOr<std::optional<SealedBrokerCredentials>>
BrokerCredentialsRepository::Get() {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kGet);
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<SealedBrokerCredentials>();
  return std::optional<SealedBrokerCredentials>(SealedBrokerCredentials{
      result->String(0, 0), result->String(0, 1), result->Time(0, 2)});
}

}  // namespace mdc::storage
