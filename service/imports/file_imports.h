// One import of one of NSE's files (docs/api.md section 13.2), shared by
// the admin routes (service/api/admin_imports.cc) and the `mdc-server
// import` command: parse with the domain, merge through the repository,
// report every row's fate.
#ifndef MDC_SERVICE_IMPORTS_FILE_IMPORTS_H_
#define MDC_SERVICE_IMPORTS_FILE_IMPORTS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "domain/security_master.h"
#include "storage/instrument_repository.h"

namespace mdc {

inline constexpr absl::string_view kEquityListFile = "equity_list";
inline constexpr absl::string_view kSymbolChangesFile = "symbol_changes";
inline constexpr absl::string_view kCorporateActionsFile = "corporate_actions";

struct FileImportReport {
  std::string kind;
  int imported = 0;
  int unchanged = 0;
  // Rows not imported, ascending by line: those the parser could not read
  // and those the rules refused.
  std::vector<domain::RejectedRow> rejected;
  // Corporate actions only: rows with no price effect.
  std::vector<domain::RejectedRow> ignored;
};

// Imports `csv` as a file of `kind` (one of the three above). INVALID_ARGUMENT
// naming `kind` for another kind, or `csv` for a file that is not of that
// kind at all; then nothing is imported.
absl::StatusOr<FileImportReport> ImportFile(
    absl::string_view kind, absl::string_view csv,
    storage::InstrumentRepository& instruments);

}  // namespace mdc

#endif  // MDC_SERVICE_IMPORTS_FILE_IMPORTS_H_
