// Developers and their token hashes.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_DEVELOPER_REPOSITORY_H_
#define MDC_STORAGE_DEVELOPER_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "storage/pool.h"

namespace mdc::storage {

struct DeveloperRecord {
  int64_t id = 0;
  std::string username;
  std::string role;  // "developer" or "admin"
  absl::Time created_at;
  std::optional<absl::Time> last_seen_at;
  std::string token_hash;  // SHA-256; never leaves the server
};

class DeveloperRepository {
 public:
  explicit DeveloperRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts a developer. Returns ALREADY_EXISTS when the username is taken.
  absl::StatusOr<DeveloperRecord> Create(const std::string& username,
                                         const std::string& role,
                                         const std::string& token_hash);

  // The developer holding the token whose hash is given, if any.
  absl::StatusOr<std::optional<DeveloperRecord>> FindByTokenHash(
      const std::string& token_hash);

  // Makes `username` an admin whose token hash is `token_hash`, creating or
  // updating it: the start-up bootstrap from MDC_ADMIN_TOKEN.
  absl::StatusOr<DeveloperRecord> UpsertAdmin(const std::string& username,
                                              const std::string& token_hash);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_DEVELOPER_REPOSITORY_H_
