#include "service/auth/auth.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/developers.h"
#include "domain/error_reason.h"
#include "domain/tokens.h"

namespace mdc {
namespace {

constexpr absl::string_view kBearer = "bearer ";

}  // namespace

bool ParseRole(absl::string_view text, Role* role) {
  if (text == "developer") {
    *role = Role::kDeveloper;
    return true;
  }
  if (text == "admin") {
    *role = Role::kAdmin;
    return true;
  }
  return false;
}

const char* RoleName(Role role) {
  return role == Role::kAdmin ? "admin" : "developer";
}

namespace {

// The part of a bearer token check that needs no database.
absl::Status CheckTokenShape(absl::string_view token) {
  if (token.empty() || token.size() > 512) {
    return absl::UnauthenticatedError("unknown or revoked token");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Caller> Authenticator::Identify(
    absl::string_view token, absl::string_view client_address) {
  if (auto shape = CheckTokenShape(token); !shape.ok()) return shape;
  return IdentifyHash(domain::HashToken(token), client_address,
                      domain::reason::kSignInThrottled);
}

absl::Status Authenticator::Throttle(absl::string_view client_address,
                                     const std::string& token_hash) {
  return throttle_.Check(client_address, token_hash,
                         domain::reason::kAuthThrottled);
}

absl::StatusOr<Caller> Authenticator::IdentifyHash(
    const std::string& token_hash, absl::string_view client_address,
    absl::string_view throttled_reason) {
  if (auto admitted =
          throttle_.Check(client_address, token_hash, throttled_reason);
      !admitted.ok()) {
    return admitted;
  }
  auto found = developers_.FindByTokenHash(token_hash);
  if (!found.ok()) return found.status();
  // A synchronous handler: the count is back before the client hears 401,
  // so a client guessing one request after another meets the lock exactly
  // at the limit.
  auto caller = Check(*found, token_hash);
  if (absl::IsUnauthenticated(caller.status())) {
    throttle_.FailedAndWait(client_address);
  }
  return caller;
}

absl::StatusOr<Caller> Authenticator::Check(
    const std::optional<storage::DeveloperRecord>& found,
    const std::string& token_hash) {
  // The lookup is by hash (an attacker cannot steer it); the comparison of
  // the stored hash is constant-time all the same.
  if (!found.has_value() ||
      !domain::ConstantTimeEquals(found->token_hash, token_hash)) {
    return absl::UnauthenticatedError("unknown or revoked token");
  }
  throttle_.Succeeded(token_hash);
  // Last-seen is written at most once a minute per developer: skipped
  // while the stored stamp is recent, and guarded in SQL against replicas
  // racing. A failure to stamp never fails the request.
  if (domain::LastSeenDue(found->last_seen_at, absl::Now())) {
    if (auto touched = developers_.TouchLastSeen(found->id); !touched.ok()) {
      log::Warning("last-seen update failed",
                   {{"developer", found->id}, {"error", touched.message()}});
    }
  }
  Caller caller;
  caller.developer_id = found->id;
  caller.username = found->username;
  if (!ParseRole(found->role, &caller.role)) {
    return absl::PermissionDeniedError("this account has no valid role");
  }
  return caller;
}

absl::StatusOr<Caller> Authenticator::Admit(
    const std::optional<storage::DeveloperRecord>& found,
    const std::string& token_hash, absl::string_view client_address) {
  auto caller = Check(found, token_hash);
  if (absl::IsUnauthenticated(caller.status())) {
    throttle_.Failed(client_address);
  }
  return caller;
}

void Authenticator::IdentifyAsync(const std::string& token_hash,
                                  absl::string_view client_address,
                                  CallerCallback done) {
  developers_.FindByTokenHash(
      token_hash, [this, token_hash, client = std::string(client_address),
                   done = std::move(done)](
                      absl::StatusOr<std::optional<storage::DeveloperRecord>>
                          found) mutable {
        if (!found.ok()) return std::move(done)(found.status());
        std::move(done)(Admit(*found, token_hash, client));
      });
}

absl::StatusOr<std::string> Authenticator::TokenHash(
    absl::string_view authorization) {
  if (authorization.empty()) {
    return absl::UnauthenticatedError(
        "missing Authorization header; send 'Authorization: Bearer <token>'");
  }
  if (authorization.size() <= kBearer.size() ||
      !absl::StartsWithIgnoreCase(authorization, kBearer)) {
    return absl::UnauthenticatedError(
        "malformed Authorization header; expected 'Bearer <token>'");
  }
  const absl::string_view token =
      absl::StripAsciiWhitespace(authorization.substr(kBearer.size()));
  if (auto shape = CheckTokenShape(token); !shape.ok()) return shape;
  return domain::HashToken(token);
}

absl::StatusOr<Caller> Authenticator::Authenticate(
    absl::string_view authorization, Access access,
    absl::string_view client_address) {
  if (access == Access::kPublic) return Caller{};
  auto hash = TokenHash(authorization);
  if (!hash.ok()) return hash.status();
  auto caller =
      IdentifyHash(*hash, client_address, domain::reason::kAuthThrottled);
  if (!caller.ok()) return caller.status();
  if (access == Access::kAdmin && caller->role != Role::kAdmin) {
    return absl::PermissionDeniedError("this route needs an admin token");
  }
  return caller;
}

}  // namespace mdc
