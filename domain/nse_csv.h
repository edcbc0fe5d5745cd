// Reading the CSV files NSE publishes (EQUITY_L.csv, the symbol-change list,
// the corporate-actions download): their quirks in one place.
//
// What NSE's files do that a plain CSV reader would trip on, and what this
// reader accepts (docs/api.md, "Instrument and corporate-action files"):
// - header names padded with blanks (" SERIES", "NAME OF COMPANY ") and in
//   any letter case: headers are trimmed and compared upper-cased;
// - a UTF-8 byte-order mark before the first header, CRLF or LF line ends,
//   blank lines (skipped; line numbers still count them);
// - quoted fields holding commas ("Tata Motors, Ltd."), "" for a quote;
// - dates as 06-OCT-2008, 14-Aug-2024 (month in any case), 14-08-2024 or
//   2024-08-14; "-" or an empty field for "no value".
//
// Pure functions; thread-compatible.
#ifndef MDC_DOMAIN_NSE_CSV_H_
#define MDC_DOMAIN_NSE_CSV_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"

namespace mdc::domain {

// One data row of a CSV file, its fields in the order of the columns asked
// for (see ReadCsvTable), and its 1-based line number in the file (the
// header is line 1), for messages.
struct CsvRow {
  int line = 0;
  std::vector<std::string> fields;
};

// The rows of a file whose header has every one of `columns`, fields in the
// order of `columns` (other columns are ignored). A row with fewer fields
// than the header is still returned; its missing fields are empty.
//
// INVALID_ARGUMENT when the text is empty, is not valid UTF-8, has an
// unterminated quote (naming its line), or its header lacks any of
// `columns` (naming them all, and `what`, the kind of file expected).
absl::StatusOr<std::vector<CsvRow>> ReadCsvTable(
    absl::string_view text, const std::vector<std::string>& columns,
    absl::string_view what);

// True for a field NSE uses to mean "no value": empty or "-" (after
// trimming blanks).
bool IsNseEmpty(absl::string_view field);

// A date as NSE writes it: DD-MON-YYYY (month name in any case),
// DD-MM-YYYY or YYYY-MM-DD. Impossible dates and other forms are
// INVALID_ARGUMENT saying which forms are accepted.
absl::StatusOr<absl::CivilDay> ParseNseDate(absl::string_view text);

// A non-negative decimal number (digits with at most one '.'); nullopt for
// anything else.
std::optional<double> ParseNseNumber(absl::string_view text);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_NSE_CSV_H_
