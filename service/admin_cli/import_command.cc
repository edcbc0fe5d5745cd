#include "service/admin_cli/import_command.h"

#include <fstream>
#include <sstream>

#include "service/imports/file_imports.h"
#include "storage/instrument_repository.h"
#include "storage/migrations.h"
#include "storage/pool.h"

namespace mdc {
namespace {

// The most bytes the command reads: the admin route's default body limit
// is 4 MiB; a file from NSE is far smaller.
constexpr std::streamsize kMaxFileBytes = 64 << 20;

}  // namespace

int RunImportCommand(const std::string& kind, const std::string& path,
                     const std::string& url, std::FILE* out, std::FILE* err) {
  if (kind != kEquityListFile && kind != kSymbolChangesFile &&
      kind != kCorporateActionsFile) {
    std::fprintf(err,
                 "--kind must be equity_list, symbol_changes or "
                 "corporate_actions\n");
    return 2;
  }
  if (path.empty()) {
    std::fprintf(err, "--file is required\n");
    return 2;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(err, "cannot read %s\n", path.c_str());
    return 1;
  }
  std::ostringstream text;
  text << file.rdbuf();
  const std::string csv = text.str();
  if (static_cast<std::streamsize>(csv.size()) > kMaxFileBytes) {
    std::fprintf(err, "%s is larger than 64 MiB\n", path.c_str());
    return 1;
  }
  storage::ConnectionPool pool(url, 1);
  auto migrated = storage::ApplyMigrations(pool, storage::EmbeddedMigrations());
  if (!migrated.ok()) {
    std::fprintf(err, "cannot prepare the database: %s\n",
                 std::string(migrated.status().message()).c_str());
    return 1;
  }
  storage::InstrumentRepository instruments(pool);
  auto report = ImportFile(kind, csv, instruments);
  if (!report.ok()) {
    std::fprintf(err, "import failed: %s\n",
                 std::string(report.status().message()).c_str());
    return 1;
  }
  for (const auto& row : report->rejected) {
    std::fprintf(err, "rejected line %d: %s\n", row.line, row.reason.c_str());
  }
  for (const auto& row : report->ignored) {
    std::fprintf(err, "ignored line %d: %s\n", row.line, row.reason.c_str());
  }
  std::fprintf(out, "imported %d unchanged %d rejected %zu ignored %zu\n",
               report->imported, report->unchanged, report->rejected.size(),
               report->ignored.size());
  return 0;
}

}  // namespace mdc
