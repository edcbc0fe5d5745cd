#include "storage/import_repository.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "storage/copy_rows.h"
#include "storage/quote_columns.h"

namespace mdc::storage {
namespace {

// One staging table per kind, temporary (of the session, invisible to
// others, dropped with it) and unlogged by nature. `ord` is the record's
// place in the stream: of two records of one key, the later wins.
struct Staging {
  const char* table;   // the market table merged into
  const char* create;  // creates the staging table
  const char* drop;
  const char* copy;
  Statement merge;  // $1 the writer; answers (keys, written)
};

constexpr Staging kQuotesStaging{
    "stock_quotes",
    "CREATE TEMP TABLE mdc_import_quotes (ord bigint, nse_symbol text, "
    "observed_at timestamptz, trading_day date, last_price float8, "
    "volume float8, quote_data bytea)",
    "DROP TABLE IF EXISTS pg_temp.mdc_import_quotes",
    "COPY pg_temp.mdc_import_quotes FROM STDIN (FORMAT binary)",
    {"import_merge_quotes",
     "WITH latest AS (SELECT DISTINCT ON (nse_symbol, observed_at) "
     "nse_symbol, observed_at, trading_day, last_price, volume, quote_data "
     "FROM pg_temp.mdc_import_quotes ORDER BY nse_symbol, observed_at, "
     "ord DESC), "
     "stored AS (INSERT INTO stock_quotes AS s (nse_symbol, observed_at, "
     "trading_day, last_price, volume, quote_data, written_by) "
     "SELECT nse_symbol, observed_at, trading_day, last_price, volume, "
     "quote_data, $1 FROM latest "
     "ON CONFLICT (nse_symbol, observed_at, trading_day) DO UPDATE SET "
     "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "
     "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "
     "written_at = now() "
     "WHERE s.quote_data IS DISTINCT FROM EXCLUDED.quote_data RETURNING 1) "
     "SELECT (SELECT count(*) FROM latest), (SELECT count(*) FROM stored)"}};

constexpr Staging kNiftyStaging{
    "nifty_quotes",
    "CREATE TEMP TABLE mdc_import_nifty (ord bigint, observed_at timestamptz, "
    "trading_day date, last_price float8, volume float8, "
    "day_change_perc float8, quote_data bytea)",
    "DROP TABLE IF EXISTS pg_temp.mdc_import_nifty",
    "COPY pg_temp.mdc_import_nifty FROM STDIN (FORMAT binary)",
    {"import_merge_nifty",
     "WITH latest AS (SELECT DISTINCT ON (observed_at) observed_at, "
     "trading_day, last_price, volume, day_change_perc, quote_data "
     "FROM pg_temp.mdc_import_nifty ORDER BY observed_at, ord DESC), "
     "stored AS (INSERT INTO nifty_quotes AS s (observed_at, trading_day, "
     "last_price, volume, day_change_perc, quote_data, written_by) "
     "SELECT observed_at, trading_day, last_price, volume, day_change_perc, "
     "quote_data, $1 FROM latest "
     "ON CONFLICT (observed_at, trading_day) DO UPDATE SET "
     "last_price = EXCLUDED.last_price, volume = EXCLUDED.volume, "
     "day_change_perc = EXCLUDED.day_change_perc, "
     "quote_data = EXCLUDED.quote_data, written_by = EXCLUDED.written_by, "
     "written_at = now() "
     "WHERE s.quote_data IS DISTINCT FROM EXCLUDED.quote_data "
     "OR s.day_change_perc IS DISTINCT FROM EXCLUDED.day_change_perc "
     "RETURNING 1) "
     "SELECT (SELECT count(*) FROM latest), (SELECT count(*) FROM stored)"}};

constexpr Staging kShortlistsStaging{
    "shortlist_snapshots",
    "CREATE TEMP TABLE mdc_import_shortlists (ord bigint, "
    "shortlist_type text, scope text, observed_at timestamptz, "
    "trading_day date, entry_count integer, entries bytea)",
    "DROP TABLE IF EXISTS pg_temp.mdc_import_shortlists",
    "COPY pg_temp.mdc_import_shortlists FROM STDIN (FORMAT binary)",
    {"import_merge_shortlists",
     "WITH latest AS (SELECT DISTINCT ON (shortlist_type, scope, "
     "observed_at) shortlist_type, scope, observed_at, trading_day, "
     "entry_count, entries FROM pg_temp.mdc_import_shortlists "
     "ORDER BY shortlist_type, scope, observed_at, ord DESC), "
     "stored AS (INSERT INTO shortlist_snapshots AS s (shortlist_type, "
     "scope, observed_at, trading_day, entry_count, entries, written_by) "
     "SELECT shortlist_type, scope, observed_at, trading_day, entry_count, "
     "entries, $1 FROM latest "
     "ON CONFLICT (shortlist_type, scope, observed_at, trading_day) "
     "DO UPDATE SET entry_count = EXCLUDED.entry_count, "
     "entries = EXCLUDED.entries, written_by = EXCLUDED.written_by, "
     "written_at = now() "
     "WHERE s.entries IS DISTINCT FROM EXCLUDED.entries RETURNING 1) "
     "SELECT (SELECT count(*) FROM latest), (SELECT count(*) FROM stored)"}};

const Staging& StagingOf(ImportSession::Kind kind) {
  switch (kind) {
    case ImportSession::Kind::kQuotes:
      return kQuotesStaging;
    case ImportSession::Kind::kNifty:
      return kNiftyStaging;
    case ImportSession::Kind::kShortlists:
      break;
  }
  return kShortlistsStaging;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ImportSession>> ImportSession::Open(
    ConnectionPool& pool, Kind kind) {
  auto conn = pool.Acquire();
  if (!conn.ok()) return conn.status();
  const Staging& staging = StagingOf(kind);
  // A table an earlier import left on this connection (it failed while
  // the connection stayed usable, and the drop failed) goes first.
  auto created =
      (*conn)->ExecScript(absl::StrCat(staging.drop, "; ", staging.create));
  if (!created.ok()) return created.status();
  return std::unique_ptr<ImportSession>(
      new ImportSession(pool, std::move(*conn), kind));
}

ImportSession::~ImportSession() {
  if (!conn_->healthy()) return;
  // Nothing to do about a failure: the next import drops it first, and
  // the session's end drops it anyway.
  (void)conn_->ExecScript(StagingOf(kind_).drop);
}

absl::Status ImportSession::Copy(std::string rows) {
  auto copied = conn_->CopyIn(StagingOf(kind_).copy, rows);
  return copied.status();
}

absl::Status ImportSession::Stage(
    const std::vector<domain::ImportedQuote>& quotes) {
  CopyRows rows;
  std::string bytes;
  for (const auto& q : quotes) {
    rows.Row(7);
    rows.Int64(next_++);
    rows.Bytes(q.symbol);
    rows.Time(q.observed_at);
    rows.Date(q.trading_day);
    rows.OptionalDouble(LastPrice(q.quote));
    rows.OptionalDouble(Volume(q.quote));
    bytes.clear();
    q.quote.SerializeToString(&bytes);
    rows.Bytes(bytes);
  }
  return Copy(std::move(rows).Finish());
}

absl::Status ImportSession::Stage(
    const std::vector<domain::ImportedNifty>& nifty) {
  CopyRows rows;
  std::string bytes;
  for (const auto& n : nifty) {
    rows.Row(7);
    rows.Int64(next_++);
    rows.Time(n.observed_at);
    rows.Date(n.trading_day);
    rows.OptionalDouble(LastPrice(n.quote));
    rows.OptionalDouble(Volume(n.quote));
    rows.Double(n.day_change_perc);
    bytes.clear();
    n.quote.SerializeToString(&bytes);
    rows.Bytes(bytes);
  }
  return Copy(std::move(rows).Finish());
}

absl::Status ImportSession::Stage(
    const std::vector<domain::ImportedShortlist>& shortlists) {
  CopyRows rows;
  std::string bytes;
  for (const auto& s : shortlists) {
    rows.Row(7);
    rows.Int64(next_++);
    rows.Bytes(v1::ShortlistType_Name(s.type));
    rows.Bytes(v1::Scope_Name(s.scope));
    rows.Time(s.observed_at);
    rows.Date(s.trading_day);
    rows.Int32(s.entries.entries_size());
    bytes.clear();
    s.entries.SerializeToString(&bytes);
    rows.Bytes(bytes);
  }
  return Copy(std::move(rows).Finish());
}

absl::StatusOr<ImportCounts> ImportSession::Merge(int64_t writer) {
  const Staging& staging = StagingOf(kind_);
  // The merge of a large file may run longer than MDC_STATEMENT_TIMEOUT,
  // which is there for the requests' statements.
  auto begun = conn_->ExecScript("BEGIN; SET LOCAL statement_timeout = 0");
  if (!begun.ok()) return begun.status();
  auto merged = conn_->Exec(staging.merge, Params().Int64(writer));
  if (merged.ok()) {
    auto committed = conn_->ExecScript("COMMIT");
    if (!committed.ok()) return committed.status();
  } else {
    if (conn_->healthy()) (void)conn_->ExecScript("ROLLBACK");
    return merged.status();
  }
  ImportCounts counts{merged->Int64(0, 0), merged->Int64(0, 1)};
  if (counts.written > 0) {
    pool_.observer().WriteCommitted(
        CommittedWrite{staging.table, counts.written});
  }
  return counts;
}

}  // namespace mdc::storage
