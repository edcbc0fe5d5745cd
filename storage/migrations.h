// Numbered SQL migrations (storage/migrations/NNNN_description.sql), embedded
// into the binary at build time and applied at start-up, each recorded in
// the schema_migrations table so it runs exactly once per database.
#ifndef MDC_STORAGE_MIGRATIONS_H_
#define MDC_STORAGE_MIGRATIONS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "storage/pool.h"

namespace mdc::storage {

struct Migration {
  const char* name;  // file name, e.g. "0001_init.sql"; sorts in apply order
  const char* sql;
};

// Every migration of storage/migrations, in order (generated code).
const std::vector<Migration>& EmbeddedMigrations();

// Applies the migrations not yet recorded, in order, in one transaction
// under an advisory lock, so replicas starting together never race.
// Returns the names applied now.
absl::StatusOr<std::vector<std::string>> ApplyMigrations(
    ConnectionPool& pool, const std::vector<Migration>& migrations);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_MIGRATIONS_H_
