// Who is calling: bearer-token authentication and role checks, in one place
// for every service.
//
// Thread-safe.
#ifndef MDC_SERVICE_AUTH_AUTH_H_
#define MDC_SERVICE_AUTH_AUTH_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "service/auth/token_throttle.h"
#include "storage/developer_repository.h"

namespace mdc {

enum class Role { kDeveloper, kAdmin };

// What a route requires of its caller.
enum class Access {
  kPublic,     // no token (health, sign-in)
  kDeveloper,  // a developer or admin token
  kAdmin,      // an admin token
};

struct Caller {
  int64_t developer_id = 0;  // 0 for public routes
  std::string username;
  Role role = Role::kDeveloper;
};

// "developer" / "admin" as stored; anything else is not a role.
bool ParseRole(absl::string_view text, Role* role);
const char* RoleName(Role role);

// Every token check goes through the failed-token throttle
// (domain/token_throttle.h): a well-formed token no developer holds counts
// against the client address that sent it, and a locked address gets
// RESOURCE_EXHAUSTED before its token is looked up, unless the token is
// known valid. `client_address` is CallContext::client_address.
class Authenticator {
 public:
  Authenticator(storage::DeveloperRepository& developers,
                TokenThrottle& throttle)
      : developers_(developers), throttle_(throttle) {}

  // Checks the value of the `authorization` metadata against `access`.
  // Returns UNAUTHENTICATED for a missing or malformed header or an unknown
  // token, RESOURCE_EXHAUSTED (AUTH_THROTTLED) for a throttled address,
  // PERMISSION_DENIED for a developer token on an admin route.
  absl::StatusOr<Caller> Authenticate(absl::string_view authorization,
                                      Access access,
                                      absl::string_view client_address);

  // The developer holding `token` (sign-in), UNAUTHENTICATED, or
  // RESOURCE_EXHAUSTED (SIGN_IN_THROTTLED) for a throttled address.
  absl::StatusOr<Caller> Identify(absl::string_view token,
                                  absl::string_view client_address);

  // OK, or RESOURCE_EXHAUSTED (AUTH_THROTTLED) when the throttle refuses
  // `token_hash` from `client_address` (writes that look their writer up
  // themselves call it before they submit).
  absl::Status Throttle(absl::string_view client_address,
                        const std::string& token_hash);

  // The SHA-256 of the bearer token in an `authorization` value, checked
  // for shape only (no database access): UNAUTHENTICATED for a missing or
  // malformed header or an impossible token. For writes that look their
  // writer up themselves (MDC_WRITER_CTE).
  absl::StatusOr<std::string> TokenHash(absl::string_view authorization);

  // The caller for what a lookup by `token_hash` found: UNAUTHENTICATED when
  // nothing (counted against `client_address`), PERMISSION_DENIED for an
  // account without a valid role. Stamps the developer's last-seen time
  // when due.
  absl::StatusOr<Caller> Admit(
      const std::optional<storage::DeveloperRecord>& found,
      const std::string& token_hash, absl::string_view client_address);

  // Looks `token_hash` up and admits what it finds, without blocking:
  // `done` gets the caller (or UNAUTHENTICATED) on a storage thread. The
  // caller has checked Throttle.
  using CallerCallback = absl::AnyInvocable<void(absl::StatusOr<Caller>) &&>;
  void IdentifyAsync(const std::string& token_hash,
                     absl::string_view client_address, CallerCallback done);

 private:
  // Admit without counting a failure.
  absl::StatusOr<Caller> Check(
      const std::optional<storage::DeveloperRecord>& found,
      const std::string& token_hash);

  // Throttle, then looks `token_hash` up and admits what it finds.
  absl::StatusOr<Caller> IdentifyHash(const std::string& token_hash,
                                      absl::string_view client_address,
                                      absl::string_view throttled_reason);

  storage::DeveloperRepository& developers_;
  TokenThrottle& throttle_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_AUTH_AUTH_H_
