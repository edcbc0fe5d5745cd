// Developers and their token hashes.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_DEVELOPER_REPOSITORY_H_
#define MDC_STORAGE_DEVELOPER_REPOSITORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/any_invocable.h"
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

// A developer from a row whose columns are MDC_DEVELOPER_COLUMNS.
DeveloperRecord ReadDeveloper(const Result& result, int row);

// The columns ReadDeveloper reads, for statements that return a developer.
#define MDC_DEVELOPER_COLUMNS \
  "id, username, role, created_at, last_seen_at, token_hash"

// A developer found, or none; delivered on a storage thread.
using DeveloperCallback =
    absl::AnyInvocable<void(absl::StatusOr<std::optional<DeveloperRecord>>) &&>;

// The developer of the result's first row, or none when it has no rows: a
// lookup's answer, and a collector write's (MDC_WRITER_CTE).
absl::StatusOr<std::optional<DeveloperRecord>> FirstDeveloper(
    const absl::StatusOr<Result>& result);

// `done` adapted to FirstDeveloper, for asynchronous statements.
ResultCallback ReportDeveloper(DeveloperCallback done);

// A collector write authenticates itself: its statement starts with this
// common table expression `writer`, which looks the writer up by the token
// hash in parameter `param` (e.g. "$7"); it writes only if a developer holds
// the token, and returns that developer, or no row when the token is unknown
// and nothing was written (FirstDeveloper). The lock keeps the writer from
// being deleted before the write commits (the foreign key check it replaces
// took the same; DeveloperRepository::Delete).
#define MDC_WRITER_CTE(param)                     \
  "WITH writer AS (SELECT " MDC_DEVELOPER_COLUMNS \
  " FROM developers WHERE token_hash = " param " FOR KEY SHARE) "

// The merged form (Statement::merged) of a collector write: the common table
// expression `writer` holds every developer who holds one of the token
// hashes in the array parameter `param`, locked as MDC_WRITER_CTE locks one;
// a submission whose token nobody holds joins none of them and writes
// nothing. MDC_WRITER_ANSWER is what each submission answers: its writer
// (the columns of MDC_DEVELOPER_COLUMNS), then its place in the arrays,
// given the submissions as `input` with their token hash and place.
#define MDC_WRITERS_CTE(param)               \
  "writer AS (SELECT " MDC_DEVELOPER_COLUMNS \
  " FROM developers WHERE token_hash = ANY (" param ") FOR KEY SHARE) "
#define MDC_WRITER_ANSWER                                               \
  "SELECT writer.id, writer.username, writer.role, writer.created_at, " \
  "writer.last_seen_at, writer.token_hash, input.place FROM input "     \
  "JOIN writer ON writer.token_hash = input.token_hash ORDER BY input.place"

// One page of developers by ascending id, and how many there are in all.
struct DeveloperPage {
  std::vector<DeveloperRecord> developers;
  int64_t total = 0;
  bool more = false;  // developers with a larger id exist
};

class DeveloperRepository {
 public:
  explicit DeveloperRepository(ConnectionPool& pool) : pool_(pool) {}

  // Inserts a developer. Returns ALREADY_EXISTS with reason USERNAME_TAKEN
  // when the username is taken.
  absl::StatusOr<DeveloperRecord> Create(const std::string& username,
                                         const std::string& role,
                                         const std::string& token_hash);

  // The developer holding the token whose hash is given, if any.
  absl::StatusOr<std::optional<DeveloperRecord>> FindByTokenHash(
      const std::string& token_hash);
  // The same for callers that must not block.
  void FindByTokenHash(const std::string& token_hash, DeveloperCallback done);

  // The developer with this id, if any.
  absl::StatusOr<std::optional<DeveloperRecord>> Find(int64_t id);

  // Up to `limit` developers with an id greater than `after_id`, ascending.
  absl::StatusOr<DeveloperPage> List(int64_t after_id, int limit);

  // Replaces the developer's token hash: the old token stops matching at
  // once. Returns NOT_FOUND for an unknown id.
  absl::StatusOr<DeveloperRecord> ReplaceTokenHash(
      int64_t id, const std::string& token_hash);

  // Same, by username (the admin command line's recovery path).
  absl::StatusOr<DeveloperRecord> ReplaceTokenHashByUsername(
      const std::string& username, const std::string& token_hash);

  // Deletes a developer; the database cascades to its runs and orders and
  // clears `written_by` on the market data it wrote. Returns NOT_FOUND for an
  // unknown id and FAILED_PRECONDITION with reason LAST_ADMIN when it is the
  // last admin. Safe under
  // concurrent deletes: the admins are locked (in id order) first, so two
  // admins deleting each other cannot both succeed.
  absl::Status Delete(int64_t id);

  // Stamps last_seen_at = now() unless it was stamped less than a minute
  // ago (the guard is in the statement, so replicas racing write once).
  absl::Status TouchLastSeen(int64_t id);

  // Makes `username` an admin whose token hash is `token_hash`, creating or
  // updating it: the start-up bootstrap from MDC_ADMIN_TOKEN.
  absl::StatusOr<DeveloperRecord> UpsertAdmin(const std::string& username,
                                              const std::string& token_hash);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_DEVELOPER_REPOSITORY_H_
