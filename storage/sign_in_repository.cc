#include "storage/sign_in_repository.h"

#include <utility>

namespace mdc::storage {
namespace {

// $2: the instant whose minute counts, NULL for the database clock's now.
constexpr Statement kFailuresThisMinute{
    "sign_in_failures_this_minute",
    "SELECT coalesce(sum(failures), 0)::bigint FROM sign_in_failures "
    "WHERE client_address = $1 "
    "AND minute = date_trunc('minute', coalesce($2, now()))"};

constexpr Statement kRecordFailure{
    "sign_in_failures_record",
    "WITH purged AS (DELETE FROM sign_in_failures "
    "WHERE minute < date_trunc('minute', coalesce($2, now())) "
    "- interval '5 minutes') "
    "INSERT INTO sign_in_failures (client_address, minute, failures) "
    "VALUES ($1, date_trunc('minute', coalesce($2, now())), 1) "
    "ON CONFLICT (client_address, minute) DO UPDATE SET "
    "failures = sign_in_failures.failures + 1 "
    "RETURNING failures::bigint"};

}  // namespace

absl::StatusOr<int> SignInRepository::FailuresThisMinute(
    const std::string& client, std::optional<absl::Time> at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kFailuresThisMinute,
                              Params().Text(client).OptionalTime(at));
  if (!result.ok()) return result.status();
  return static_cast<int>(result->Int64(0, 0));
}

absl::StatusOr<int> SignInRepository::RecordFailure(
    const std::string& client, std::optional<absl::Time> at) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kRecordFailure, Params().Text(client).OptionalTime(at));
  if (!result.ok()) return result.status();
  return static_cast<int>(result->Int64(0, 0));
}

void SignInRepository::RecordFailureAsync(const std::string& client,
                                          std::optional<absl::Time> at,
                                          CountCallback done) {
  pool_.SubmitWrite(
      kRecordFailure, Params().Text(client).OptionalTime(at),
      [done = std::move(done)](absl::StatusOr<Result> result) mutable {
        if (!result.ok()) {
          return std::move(done)(result.status());
        }
        std::move(done)(static_cast<int>(result->Int64(0, 0)));
      });
}

}  // namespace mdc::storage
