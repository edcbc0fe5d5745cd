#include "storage/sign_in_repository.h"

namespace mdc::storage {
namespace {

constexpr Statement kFailuresThisMinute{
    "sign_in_failures_this_minute",
    "SELECT coalesce(sum(failures), 0)::bigint FROM sign_in_failures "
    "WHERE client_address = $1 AND minute = date_trunc('minute', now())"};

constexpr Statement kRecordFailure{
    "sign_in_failures_record",
    "WITH purged AS (DELETE FROM sign_in_failures "
    "WHERE minute < date_trunc('minute', now()) - interval '5 minutes') "
    "INSERT INTO sign_in_failures (client_address, minute, failures) "
    "VALUES ($1, date_trunc('minute', now()), 1) "
    "ON CONFLICT (client_address, minute) DO UPDATE SET "
    "failures = sign_in_failures.failures + 1"};

constexpr Statement kFailuresThisMinutePair{
    "sign_in_failures_this_minute_pair",
    "SELECT coalesce(sum(failures) FILTER (WHERE client_address = $1), "
    "0)::bigint, "
    "coalesce(sum(failures) FILTER (WHERE client_address = $2), 0)::bigint "
    "FROM sign_in_failures WHERE client_address IN ($1, $2) "
    "AND minute = date_trunc('minute', now())"};

constexpr Statement kRecordFailurePair{
    "sign_in_failures_record_pair",
    "WITH purged AS (DELETE FROM sign_in_failures "
    "WHERE minute < date_trunc('minute', now()) - interval '5 minutes') "
    "INSERT INTO sign_in_failures (client_address, minute, failures) "
    "VALUES ($1, date_trunc('minute', now()), 1), "
    "($2, date_trunc('minute', now()), 1) "
    "ON CONFLICT (client_address, minute) DO UPDATE SET "
    "failures = sign_in_failures.failures + 1"};

}  // namespace

absl::StatusOr<SignInRepository::Failures> SignInRepository::FailuresThisMinute(
    const std::string& address, const std::string& address_token) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFailuresThisMinutePair,
                              Params().Text(address).Text(address_token));
  if (!result.ok()) return result.status();
  return Failures{static_cast<int>(result->Int64(0, 0)),
                  static_cast<int>(result->Int64(0, 1))};
}

absl::Status SignInRepository::RecordFailure(const std::string& address,
                                             const std::string& address_token) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)
      ->Exec(kRecordFailurePair, Params().Text(address).Text(address_token))
      .status();
}

absl::StatusOr<int> SignInRepository::FailuresThisMinute(
    const std::string& client) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFailuresThisMinute, Params().Text(client));
  if (!result.ok()) return result.status();
  return static_cast<int>(result->Int64(0, 0));
}

absl::Status SignInRepository::RecordFailure(const std::string& client) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)->Exec(kRecordFailure, Params().Text(client)).status();
}

}  // namespace mdc::storage
