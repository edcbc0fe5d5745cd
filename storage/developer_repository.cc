#include "storage/developer_repository.h"

#include "absl/status/status.h"

namespace mdc::storage {
namespace {


constexpr Statement kCreate{
    "developers_create",
    "INSERT INTO developers (username, role, token_hash) VALUES ($1, $2, $3) "
    "RETURNING id, username, role, created_at, last_seen_at, token_hash"};
constexpr Statement kFindByTokenHash{
    "developers_find_by_token_hash",
    "SELECT id, username, role, created_at, last_seen_at, token_hash "
    "FROM developers WHERE token_hash = $1"};
constexpr Statement kUpsertAdmin{
    "developers_upsert_admin",
    "INSERT INTO developers (username, role, token_hash) "
    "VALUES ($1, 'admin', $2) "
    "ON CONFLICT (username) DO UPDATE SET role = 'admin', "
    "token_hash = EXCLUDED.token_hash "
    "RETURNING id, username, role, created_at, last_seen_at, token_hash"};

DeveloperRecord ReadDeveloper(const Result& r, int row) {
  DeveloperRecord d;
  d.id = r.Int64(row, 0);
  d.username = r.String(row, 1);
  d.role = r.String(row, 2);
  d.created_at = r.Time(row, 3);
  if (!r.IsNull(row, 4)) d.last_seen_at = r.Time(row, 4);
  d.token_hash = r.String(row, 5);
  return d;
}

}  // namespace

absl::StatusOr<DeveloperRecord> DeveloperRepository::Create(
    const std::string& username, const std::string& role,
    const std::string& token_hash) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kCreate, Params().Text(username).Text(role).Bytes(token_hash));
  if (!result.ok()) {
    if (SqlState(result.status()) == kUniqueViolation) {
      return absl::AlreadyExistsError("username is already taken");
    }
    return result.status();
  }
  return ReadDeveloper(*result, 0);
}

absl::StatusOr<std::optional<DeveloperRecord>>
DeveloperRepository::FindByTokenHash(const std::string& token_hash) {
  // Every authenticated request looks its token up: concurrent lookups share
  // one round trip.
  auto result = pool_.ExecRead(kFindByTokenHash, Params().Bytes(token_hash));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<DeveloperRecord>();
  return std::optional<DeveloperRecord>(ReadDeveloper(*result, 0));
}

absl::StatusOr<DeveloperRecord> DeveloperRepository::UpsertAdmin(
    const std::string& username, const std::string& token_hash) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kUpsertAdmin, Params().Text(username).Bytes(token_hash));
  if (!result.ok()) {
    if (SqlState(result.status()) == kUniqueViolation) {
      return absl::AlreadyExistsError(
          "the bootstrap admin token is already held by another developer");
    }
    return result.status();
  }
  return ReadDeveloper(*result, 0);
}

}  // namespace mdc::storage
