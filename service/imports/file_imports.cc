#include "service/imports/file_imports.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "domain/corporate_actions.h"
#include "domain/field_errors.h"
#include "domain/text.h"

namespace mdc {
namespace {

// A file the parser refused whole is a bad `csv` field.
absl::Status BadFile(const absl::Status& status) {
  return domain::InvalidField("csv", status.message());
}

FileImportReport ReportOf(absl::string_view kind,
                          const domain::ImportOutcome& outcome,
                          const std::vector<domain::RejectedRow>& unreadable) {
  FileImportReport report;
  report.kind = std::string(kind);
  report.imported = outcome.imported;
  report.unchanged = outcome.unchanged;
  report.rejected = unreadable;
  report.rejected.insert(report.rejected.end(), outcome.rejected.begin(),
                         outcome.rejected.end());
  std::stable_sort(
      report.rejected.begin(), report.rejected.end(),
      [](const auto& a, const auto& b) { return a.line < b.line; });
  return report;
}

}  // namespace

absl::StatusOr<FileImportReport> ImportFile(
    absl::string_view kind, absl::string_view csv,
    storage::InstrumentRepository& instruments) {
  if (kind == kEquityListFile) {
    auto parsed = domain::ParseEquityList(csv);
    if (!parsed.ok()) return BadFile(parsed.status());
    auto outcome = instruments.ImportEquityList(parsed->rows);
    if (!outcome.ok()) return outcome.status();
    return ReportOf(kind, *outcome, parsed->rejected);
  }
  if (kind == kSymbolChangesFile) {
    auto parsed = domain::ParseSymbolChanges(csv);
    if (!parsed.ok()) return BadFile(parsed.status());
    auto outcome = instruments.ImportSymbolChanges(parsed->rows);
    if (!outcome.ok()) return outcome.status();
    return ReportOf(kind, *outcome, parsed->rejected);
  }
  if (kind == kCorporateActionsFile) {
    auto parsed = domain::ParseCorporateActions(csv);
    if (!parsed.ok()) return BadFile(parsed.status());
    auto outcome = instruments.ImportCorporateActions(parsed->rows);
    if (!outcome.ok()) return outcome.status();
    FileImportReport report = ReportOf(kind, *outcome, parsed->rejected);
    report.ignored = parsed->ignored;
    return report;
  }
  return domain::InvalidField(
      "kind", absl::StrCat("must be equity_list or symbol_changes; got ",
                           domain::QuoteForMessage(kind)));
}

}  // namespace mdc
