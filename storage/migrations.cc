#include "storage/migrations.h"

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace mdc::storage {
namespace {

// Any constant unique to mdc; pg_advisory_xact_lock releases at commit.
// No statement timeout (MDC_STATEMENT_TIMEOUT) for migrations: waiting for
// another server's migrations, or rewriting a large table, may take longer.
constexpr char kLockAndPrepare[] = R"sql(
SET LOCAL statement_timeout = 0;
SELECT pg_advisory_xact_lock(4242001);
CREATE TABLE IF NOT EXISTS schema_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
);
)sql";

constexpr Statement kAppliedMigrations{"migrations_applied",
                                       "SELECT name FROM schema_migrations"};
constexpr Statement kRecordMigration{
    "migrations_record", "INSERT INTO schema_migrations (name) VALUES ($1)"};

}  // namespace

absl::StatusOr<std::vector<std::string>> ApplyMigrations(
    ConnectionPool& pool, const std::vector<Migration>& migrations) {
  std::vector<std::string> applied_now;
  absl::Status status =
      pool.InTransaction([&](Connection& conn) -> absl::Status {
        if (auto prepared = conn.ExecScript(kLockAndPrepare); !prepared.ok()) {
          return prepared.status();
        }
        auto applied = conn.Exec(kAppliedMigrations);
        if (!applied.ok()) return applied.status();
        absl::flat_hash_set<std::string> done;
        for (int row = 0; row < applied->rows(); ++row) {
          done.insert(applied->String(row, 0));
        }
        for (const Migration& migration : migrations) {
          if (done.contains(migration.name)) continue;
          if (auto ran = conn.ExecScript(migration.sql); !ran.ok()) {
            return absl::Status(ran.status().code(),
                                absl::StrCat("migration ", migration.name, ": ",
                                             ran.status().message()));
          }
          if (auto recorded =
                  conn.Exec(kRecordMigration, Params().Text(migration.name));
              !recorded.ok()) {
            return recorded.status();
          }
          applied_now.push_back(migration.name);
        }
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  return applied_now;
}

}  // namespace mdc::storage
