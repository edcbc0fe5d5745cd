#include "storage/broker_token_repository.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace mdc::storage {
namespace {

// Arbitrary but fixed: the advisory lock key of broker token refreshes
// ("mdc" + "tok" in ASCII).
constexpr int64_t kRefreshLockKey = 0x6d6463746f6b;

constexpr Statement kFindBrokerToken{
    "broker_tokens_find",
    "SELECT access_token_sealed, expires_at, fetched_at FROM broker_tokens "
    "WHERE id"};

constexpr Statement kSave{
    "broker_tokens_save",
    "INSERT INTO broker_tokens (id, access_token_sealed, expires_at, "
    "fetched_at) VALUES (true, $1, $2, now()) ON CONFLICT (id) DO UPDATE SET "
    "access_token_sealed = EXCLUDED.access_token_sealed, "
    "expires_at = EXCLUDED.expires_at, "
    "fetched_at = EXCLUDED.fetched_at"};

constexpr Statement kLock{"broker_tokens_lock",
                          "SELECT pg_advisory_xact_lock($1)"};

// lock_timeout bounds the wait for the advisory lock; set_config(..., true)
// scopes it to the transaction.
constexpr Statement kLockTimeout{"broker_tokens_lock_timeout",
                                 "SELECT set_config('lock_timeout', $1, true)"};

constexpr absl::string_view kLockNotAvailable = "55P03";

absl::StatusOr<std::optional<StoredBrokerToken>> FindOn(Connection& conn) {
  auto result = conn.Exec(kFindBrokerToken);
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<StoredBrokerToken>();
  return std::optional<StoredBrokerToken>(StoredBrokerToken{
      result->String(0, 0), result->Time(0, 1), result->Time(0, 2)});
}

}  // namespace

absl::StatusOr<std::optional<StoredBrokerToken>> BrokerTokenRepository::Find() {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return FindOn(**conn);
}

absl::StatusOr<std::optional<StoredBrokerToken>>
BrokerTokenRepository::LockedSession::Find() {
  return FindOn(conn_);
}

absl::Status BrokerTokenRepository::LockedSession::Save(
    const std::string& access_token_sealed, absl::Time expires_at) {
  return conn_.Exec(kSave, Params().Bytes(access_token_sealed).Time(expires_at))
      .status();
}

absl::Status BrokerTokenRepository::WithRefreshLock(
    absl::Duration wait, absl::FunctionRef<absl::Status(LockedSession&)> body) {
  return pool_.InTransaction([&](Connection& conn) -> absl::Status {
    const int64_t millis =
        std::max<int64_t>(1, absl::ToInt64Milliseconds(wait));
    if (auto set =
            conn.Exec(kLockTimeout, Params().Text(absl::StrCat(millis, "ms")));
        !set.ok()) {
      return set.status();
    }
    if (auto locked = conn.Exec(kLock, Params().Int64(kRefreshLockKey));
        !locked.ok()) {
      if (SqlState(locked.status()) == kLockNotAvailable) {
        return absl::UnavailableError(
            "another broker token refresh is still running; retry shortly");
      }
      return locked.status();
    }
    LockedSession session(conn);
    return body(session);
  });
}

}  // namespace mdc::storage
