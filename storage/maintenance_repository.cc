#include "storage/maintenance_repository.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace mdc::storage {
namespace {

// ANALYZE and VACUUM are utility commands: they cannot be prepared, so they
// run as fixed text through the simple query protocol, one per call.
struct Table {
  const char* name;
  const char* analyze;
  const char* vacuum;
};

constexpr Table kTables[] = {
    {"developers", "ANALYZE developers", "VACUUM (ANALYZE) developers"},
    {"shortlist_snapshots", "ANALYZE shortlist_snapshots",
     "VACUUM (ANALYZE) shortlist_snapshots"},
    {"stock_quotes", "ANALYZE stock_quotes", "VACUUM (ANALYZE) stock_quotes"},
    {"nifty_quotes", "ANALYZE nifty_quotes", "VACUUM (ANALYZE) nifty_quotes"},
    {"holidays", "ANALYZE holidays", "VACUUM (ANALYZE) holidays"},
    {"runs", "ANALYZE runs", "VACUUM (ANALYZE) runs"},
    {"orders", "ANALYZE orders", "VACUUM (ANALYZE) orders"},
    {"broker_credentials", "ANALYZE broker_credentials",
     "VACUUM (ANALYZE) broker_credentials"},
    {"broker_tokens", "ANALYZE broker_tokens",
     "VACUUM (ANALYZE) broker_tokens"},
};

// A partitioned table (the market history, migration 0010) keeps no rows
// itself: its partitions' dead rows are summed (pg_partition_tree of a plain
// table is the table alone).
constexpr Statement kDeadRows{
    "maintenance_dead_rows",
    "SELECT coalesce((SELECT sum(s.n_dead_tup) "
    "FROM pg_partition_tree(to_regclass($1)) AS t "
    "JOIN pg_stat_user_tables AS s ON s.relid = t.relid), 0)::int8"};

// Each returns (key as text, rows) for keys held by more than one row; at
// most kShownDuplicates + 1 so the report can say it was cut.
constexpr int kShownDuplicates = 100;
struct DedupeCheckSpec {
  const char* what;
  Statement statement;
};
constexpr DedupeCheckSpec kDedupeChecks[] = {
    {"shortlist_snapshots (shortlistType, scope, timestamp)",
     {"maintenance_dupes_shortlists",
      "SELECT shortlist_type || ' ' || scope || ' ' || observed_at::text, "
      "count(*) FROM shortlist_snapshots GROUP BY shortlist_type, scope, "
      "observed_at HAVING count(*) > 1 ORDER BY 1 LIMIT 101"}},
    {"stock_quotes (nseSymbol ignoring case and blanks, timestamp)",
     {"maintenance_dupes_quotes",
      "SELECT upper(btrim(nse_symbol)) || ' ' || observed_at::text, count(*) "
      "FROM stock_quotes GROUP BY upper(btrim(nse_symbol)), observed_at "
      "HAVING count(*) > 1 ORDER BY 1 LIMIT 101"}},
    {"nifty_quotes (timestamp)",
     {"maintenance_dupes_nifty",
      "SELECT observed_at::text, count(*) FROM nifty_quotes "
      "GROUP BY observed_at HAVING count(*) > 1 ORDER BY 1 LIMIT 101"}},
    {"holidays (date)",
     {"maintenance_dupes_holidays",
      "SELECT holiday_date::text, count(*) FROM holidays "
      "GROUP BY holiday_date HAVING count(*) > 1 ORDER BY 1 LIMIT 101"}},
    {"developers (username ignoring case)",
     {"maintenance_dupes_developers",
      "SELECT lower(username), count(*) FROM developers "
      "GROUP BY lower(username) HAVING count(*) > 1 ORDER BY 1 LIMIT 101"}},
};

}  // namespace

absl::StatusOr<MaintenanceReport> MaintenanceRepository::Analyze(bool dry_run) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  MaintenanceReport report;
  for (const Table& table : kTables) {
    if (!dry_run) {
      if (auto done = (*conn)->ExecScript(table.analyze); !done.ok()) {
        return done.status();
      }
    }
    report.log.push_back(
        absl::StrCat(dry_run ? "would analyze " : "analyzed ", table.name));
    ++report.affected;
  }
  return report;
}

absl::StatusOr<MaintenanceReport> MaintenanceRepository::Vacuum(bool dry_run) {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  MaintenanceReport report;
  for (const Table& table : kTables) {
    auto dead = (*conn)->Exec(kDeadRows, Params().Text(table.name));
    if (!dead.ok()) return dead.status();
    const int64_t dead_rows = dead->Int64(0, 0);
    if (!dry_run) {
      // The pool never lends a connection inside a transaction, so this
      // runs in autocommit mode as VACUUM requires.
      if (auto done = (*conn)->ExecScript(table.vacuum); !done.ok()) {
        return done.status();
      }
    }
    report.log.push_back(absl::StrCat(dry_run ? "would vacuum " : "vacuumed ",
                                      table.name, " (about ", dead_rows,
                                      " dead rows)"));
    ++report.affected;
  }
  return report;
}

absl::StatusOr<MaintenanceReport> MaintenanceRepository::DedupeCheck() {
  auto conn = pool_.Acquire();
  if (!conn.ok()) return conn.status();
  MaintenanceReport report;
  for (const DedupeCheckSpec& check : kDedupeChecks) {
    auto found = (*conn)->Exec(check.statement);
    if (!found.ok()) return found.status();
    if (found->rows() == 0) {
      report.log.push_back(absl::StrCat(check.what, ": no duplicates"));
      continue;
    }
    const int shown = std::min(found->rows(), kShownDuplicates);
    for (int row = 0; row < shown; ++row) {
      report.log.push_back(absl::StrCat(check.what, ": ", found->String(row, 0),
                                        " stored ", found->Int64(row, 1),
                                        " times"));
    }
    if (found->rows() > kShownDuplicates) {
      report.log.push_back(absl::StrCat(check.what, ": more than ",
                                        kShownDuplicates,
                                        " duplicated keys; list cut"));
    }
    report.affected += found->rows();
  }
  return report;
}

}  // namespace mdc::storage
