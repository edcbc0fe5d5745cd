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

class Authenticator {
 public:
  explicit Authenticator(storage::DeveloperRepository& developers)
      : developers_(developers) {}

  // Checks the value of the `authorization` metadata against `access`.
  // Returns UNAUTHENTICATED for a missing or malformed header or an unknown
  // token, PERMISSION_DENIED for a developer token on an admin route.
  absl::StatusOr<Caller> Authenticate(absl::string_view authorization,
                                      Access access);

  // The developer holding `token`, or UNAUTHENTICATED.
  absl::StatusOr<Caller> Identify(absl::string_view token);

  // The SHA-256 of the bearer token in an `authorization` value, checked
  // for shape only (no database access): UNAUTHENTICATED for a missing or
  // malformed header or an impossible token. For writes that look their
  // writer up themselves (MDC_WRITER_CTE).
  absl::StatusOr<std::string> TokenHash(absl::string_view authorization);

  // The caller for what a lookup by `token_hash` found: UNAUTHENTICATED when
  // nothing, PERMISSION_DENIED for an account without a valid role.
  // Stamps the developer's last-seen time when due.
  absl::StatusOr<Caller> Admit(
      const std::optional<storage::DeveloperRecord>& found,
      const std::string& token_hash);

  // Looks `token_hash` up and admits what it finds, without blocking:
  // `done` gets the caller (or UNAUTHENTICATED) on a storage thread.
  using CallerCallback = absl::AnyInvocable<void(absl::StatusOr<Caller>) &&>;
  void IdentifyAsync(const std::string& token_hash, CallerCallback done);

 private:
  // Looks `token_hash` up and admits what it finds.
  absl::StatusOr<Caller> IdentifyHash(const std::string& token_hash);

  storage::DeveloperRepository& developers_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_AUTH_AUTH_H_
