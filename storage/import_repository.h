// Bulk import into the market tables (mdc.v1.ImportService): the records of
// one import are copied into a staging table of the import's own session
// (COPY, binary), a message at a time, and merged into their market table in
// one statement and one transaction once all have arrived.
//
// Staging writes no market table: until the merge commits, nothing of the
// import is visible to any read or watch, and an import that ends early
// (its connection dropped, the server stopped) leaves nothing but a
// temporary table that PostgreSQL drops with the session. Each COPY commits
// on its own (autocommit), so the import holds no transaction open while
// its records arrive: the watch streams' commit horizon waits only for the
// merge (storage/market_event_repository.h).
//
// Not thread-safe: one import, one thread at a time.
#ifndef MDC_STORAGE_IMPORT_REPOSITORY_H_
#define MDC_STORAGE_IMPORT_REPOSITORY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "domain/import_records.h"
#include "storage/pool.h"

namespace mdc::storage {

// What a merge did.
struct ImportCounts {
  // Distinct keys among the staged records (of a key staged twice, the
  // last counts).
  int64_t keys = 0;
  // Keys inserted, or updated because the stored record differed.
  int64_t written = 0;
};

class ImportSession {
 public:
  enum class Kind { kQuotes, kNifty, kShortlists };

  // Checks a connection out of `pool` for the whole import and creates
  // its staging table.
  static absl::StatusOr<std::unique_ptr<ImportSession>> Open(
      ConnectionPool& pool, Kind kind);

  // Drops the staging table (when the connection still works) and returns
  // the connection.
  ~ImportSession();

  // Appends records to the staging table, in stream order (the later of
  // two records of a key wins). Each for its kind only.
  absl::Status Stage(const std::vector<domain::ImportedQuote>& quotes);
  absl::Status Stage(const std::vector<domain::ImportedNifty>& nifty);
  absl::Status Stage(const std::vector<domain::ImportedShortlist>& shortlists);

  // Merges every staged record into its market table in one transaction,
  // stamped as written by `writer` (a developer id): a key not stored is
  // inserted, one stored with other content is replaced, one stored the
  // same is left as it is. Reports the rows written to the pool's
  // observer once committed (which wakes the watch streams).
  absl::StatusOr<ImportCounts> Merge(int64_t writer);

 private:
  ImportSession(ConnectionPool& pool, PooledConnection conn, Kind kind)
      : pool_(pool), conn_(std::move(conn)), kind_(kind) {}

  // COPYs `rows` into the staging table.
  absl::Status Copy(std::string rows);

  ConnectionPool& pool_;
  PooledConnection conn_;
  const Kind kind_;
  // The place of the next staged record in the stream.
  int64_t next_ = 0;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_IMPORT_REPOSITORY_H_
