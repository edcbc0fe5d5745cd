#include "storage/developer_repository.h"

#include "absl/status/status.h"
#include "domain/error_reason.h"

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

constexpr Statement kFindDeveloper{
    "developers_find",
    "SELECT id, username, role, created_at, last_seen_at, token_hash "
    "FROM developers WHERE id = $1"};
constexpr Statement kList{
    "developers_list",
    "SELECT id, username, role, created_at, last_seen_at, token_hash "
    "FROM developers WHERE id > $1 ORDER BY id LIMIT $2"};
constexpr Statement kCount{"developers_count",
                           "SELECT count(*) FROM developers"};
constexpr Statement kReplaceTokenHash{
    "developers_replace_token_hash",
    "UPDATE developers SET token_hash = $2 WHERE id = $1 "
    "RETURNING id, username, role, created_at, last_seen_at, token_hash"};
constexpr Statement kReplaceTokenHashByUsername{
    "developers_replace_token_hash_by_username",
    "UPDATE developers SET token_hash = $2 WHERE username = $1 "
    "RETURNING id, username, role, created_at, last_seen_at, token_hash"};
// Locks the target and every admin in id order, so concurrent deletes of
// admins serialize instead of each seeing another admin left (or
// deadlocking).
constexpr Statement kLockForDelete{
    "developers_lock_for_delete",
    "SELECT id, role FROM developers WHERE id = $1 OR role = 'admin' "
    "ORDER BY id FOR UPDATE"};
// The market data keeps no foreign key to its writer (migration 0005): its
// written_by is cleared here, under kLockForDelete's lock, which waits for
// the writes under way by this developer (they lock it FOR KEY SHARE) and
// keeps new ones out until the developer is gone.
constexpr Statement kDeleteDeveloper{
    "developers_delete",
    "WITH shortlists AS (UPDATE shortlist_snapshots SET written_by = NULL "
    "WHERE written_by = $1), "
    "quotes AS (UPDATE stock_quotes SET written_by = NULL "
    "WHERE written_by = $1), "
    "nifty AS (UPDATE nifty_quotes SET written_by = NULL "
    "WHERE written_by = $1) "
    "DELETE FROM developers WHERE id = $1"};
constexpr Statement kTouchLastSeen{
    "developers_touch_last_seen",
    "UPDATE developers SET last_seen_at = now() WHERE id = $1 AND "
    "(last_seen_at IS NULL OR last_seen_at < now() - interval '1 minute')"};

}  // namespace

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

absl::StatusOr<std::optional<DeveloperRecord>> FirstDeveloper(
    const absl::StatusOr<Result>& result) {
  if (!result.ok()) return result.status();
  if (result->rows() == 0) return std::optional<DeveloperRecord>();
  return std::optional<DeveloperRecord>(ReadDeveloper(*result, 0));
}

ResultCallback ReportDeveloper(DeveloperCallback done) {
  return [done = std::move(done)](absl::StatusOr<Result> result) mutable {
    std::move(done)(FirstDeveloper(result));
  };
}

absl::StatusOr<DeveloperRecord> DeveloperRepository::Create(
    const std::string& username, const std::string& role,
    const std::string& token_hash) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(
      kCreate, Params().Text(username).Text(role).Bytes(token_hash));
  if (!result.ok()) {
    if (SqlState(result.status()) == kUniqueViolation) {
      return domain::WithReason(
          absl::AlreadyExistsError("username is already taken"),
          domain::reason::kUsernameTaken);
    }
    return result.status();
  }
  return ReadDeveloper(*result, 0);
}

absl::StatusOr<std::optional<DeveloperRecord>>
DeveloperRepository::FindByTokenHash(const std::string& token_hash) {
  // Every authenticated request looks its token up: concurrent lookups share
  // one round trip.
  return FirstDeveloper(
      pool_.ExecRead(kFindByTokenHash, Params().Bytes(token_hash)));
}

void DeveloperRepository::FindByTokenHash(const std::string& token_hash,
                                          DeveloperCallback done) {
  pool_.SubmitRead(kFindByTokenHash, Params().Bytes(token_hash),
                   ReportDeveloper(std::move(done)));
}

absl::StatusOr<std::optional<DeveloperRecord>> DeveloperRepository::Find(
    int64_t id) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return FirstDeveloper((*conn)->Exec(kFindDeveloper, Params().Int64(id)));
}

absl::StatusOr<DeveloperPage> DeveloperRepository::List(int64_t after_id,
                                                        int limit) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  // One more than asked tells whether another page follows.
  auto rows = (*conn)->Exec(kList, Params().Int64(after_id).Int64(limit + 1));
  if (!rows.ok()) return rows.status();
  auto count = (*conn)->Exec(kCount);
  if (!count.ok()) return count.status();
  DeveloperPage page;
  page.total = count->Int64(0, 0);
  page.more = rows->rows() > limit;
  const int n = page.more ? limit : rows->rows();
  page.developers.reserve(n);
  for (int row = 0; row < n; ++row) {
    page.developers.push_back(ReadDeveloper(*rows, row));
  }
  return page;
}

absl::StatusOr<DeveloperRecord> DeveloperRepository::ReplaceTokenHash(
    int64_t id, const std::string& token_hash) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result =
      (*conn)->Exec(kReplaceTokenHash, Params().Int64(id).Bytes(token_hash));
  if (!result.ok()) return result.status();
  if (result->rows() == 0)
    return absl::NotFoundError("no developer with this id");
  return ReadDeveloper(*result, 0);
}

absl::StatusOr<DeveloperRecord> DeveloperRepository::ReplaceTokenHashByUsername(
    const std::string& username, const std::string& token_hash) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  auto result = (*conn)->Exec(kReplaceTokenHashByUsername,
                              Params().Text(username).Bytes(token_hash));
  if (!result.ok()) return result.status();
  if (result->rows() == 0) {
    return absl::NotFoundError("no developer with this username");
  }
  return ReadDeveloper(*result, 0);
}

absl::Status DeveloperRepository::Delete(int64_t id) {
  return pool_.InTransaction([&](Connection& conn) -> absl::Status {
    auto locked = conn.Exec(kLockForDelete, Params().Int64(id));
    if (!locked.ok()) return locked.status();
    bool found = false;
    bool target_is_admin = false;
    int admins = 0;
    for (int row = 0; row < locked->rows(); ++row) {
      const bool admin = locked->String(row, 1) == "admin";
      admins += admin ? 1 : 0;
      if (locked->Int64(row, 0) == id) {
        found = true;
        target_is_admin = admin;
      }
    }
    if (!found) return absl::NotFoundError("no developer with this id");
    if (target_is_admin && admins <= 1) {
      return domain::WithReason(
          absl::FailedPreconditionError(
              "this is the last admin: deleting it would leave nobody able "
              "to manage the service; create another admin first"),
          domain::reason::kLastAdmin);
    }
    return conn.Exec(kDeleteDeveloper, Params().Int64(id)).status();
  });
}

absl::Status DeveloperRepository::TouchLastSeen(int64_t id) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  return (*conn)->Exec(kTouchLastSeen, Params().Int64(id)).status();
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
