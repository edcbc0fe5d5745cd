// The security master: instruments identified by ISIN, each with its NSE
// symbol over time, and the two NSE files that feed it (EQUITY_L.csv and the
// symbol-change list). Parsing and merging are plain functions over an
// in-memory SecurityMaster so that the import rules are unit-tested here and
// the repository only loads the master, calls them and writes what changed.
//
// Symbol history: an instrument's symbols are periods, each valid from its
// `valid_from` (inclusive) until the next period's `valid_from`
// (exclusive); the last one is open. One symbol names at most one instrument
// on any day.
//
// Pure functions; thread-compatible.
#ifndef MDC_DOMAIN_SECURITY_MASTER_H_
#define MDC_DOMAIN_SECURITY_MASTER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"

namespace mdc::domain {

// The day a symbol is valid from when NSE gives no listing date.
inline constexpr absl::CivilDay kEarliestListing{1900, 1, 1};

struct Instrument {
  std::string isin;
  std::string name;
  std::string series;
  std::optional<absl::CivilDay> listing_date;
  std::optional<double> paid_up_value;
  std::optional<int> market_lot;
  std::optional<double> face_value;
};

bool operator==(const Instrument& a, const Instrument& b);

struct SymbolPeriod {
  std::string symbol;
  absl::CivilDay valid_from;
};

bool operator==(const SymbolPeriod& a, const SymbolPeriod& b);

// Periods ascending by valid_from, never two on one day.
using SymbolHistory = std::vector<SymbolPeriod>;

struct SecurityMaster {
  std::map<std::string, Instrument> instruments;  // by ISIN
  std::map<std::string, SymbolHistory> symbols;   // by ISIN
};

// A row of a file that was not imported, and why.
struct RejectedRow {
  int line = 0;
  std::string reason;
};

// What an import did, row by row.
struct ImportOutcome {
  int imported = 0;   // rows that added or changed something
  int unchanged = 0;  // rows already stored exactly so
  std::vector<RejectedRow> rejected;
};

// One row of EQUITY_L.csv.
struct EquityListEntry {
  int line = 0;
  std::string symbol;
  Instrument instrument;
};

// One row of the symbol-change list: `old_symbol` became `new_symbol` from
// `applicable_from` (the first day traded under the new symbol).
struct SymbolChange {
  int line = 0;
  std::string company;
  std::string old_symbol;
  std::string new_symbol;
  absl::CivilDay applicable_from;
};

template <typename Row>
struct ParsedRows {
  std::vector<Row> rows;
  std::vector<RejectedRow> rejected;
};

// OK when `isin` is an ISIN: 2 letters, 9 letters or digits, 1 check digit
// that matches (ISO 6166). Otherwise INVALID_ARGUMENT saying which rule.
absl::Status CheckIsin(absl::string_view isin);

// OK for an NSE stock symbol: 1-32 of A-Z a-z 0-9 & . _ -, not NIFTY.
absl::Status CheckStockSymbol(absl::string_view symbol);

// EQUITY_L.csv: SYMBOL, NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP
// VALUE, MARKET LOT, ISIN NUMBER, FACE VALUE. A row with a bad symbol, ISIN,
// date or number is rejected with its line and reason; the file fails
// (INVALID_ARGUMENT) only when it is not such a file at all.
absl::StatusOr<ParsedRows<EquityListEntry>> ParseEquityList(
    absl::string_view csv);

// The symbol-change list: SM_NAME_OF_COMPANY, SM_KEY_SYMBOL, SM_NEW_SYMBOL,
// SM_APPLICABLE_FROM.
absl::StatusOr<ParsedRows<SymbolChange>> ParseSymbolChanges(
    absl::string_view csv);

// The symbol of `history` on `day`; nullopt before its first period.
std::optional<std::string> SymbolOn(const SymbolHistory& history,
                                    absl::CivilDay day);

// The ISIN whose symbol is `symbol` on `day`, if any.
std::optional<std::string> IsinOfSymbolOn(const SecurityMaster& master,
                                          absl::string_view symbol,
                                          absl::CivilDay day);

// The ISIN that has ever been called `symbol` (the one whose period of it
// is latest when several were).
std::optional<std::string> IsinOfSymbolEver(const SecurityMaster& master,
                                            absl::string_view symbol);

// Merges EQUITY_L rows into `master`. A new ISIN is added with its symbol
// valid from its listing date (kEarliestListing when none); a known ISIN
// gets its details updated. Rejected, nothing guessed: a known ISIN whose
// current symbol differs (the rename's date is not in this file: import
// the symbol-change list), and a symbol another ISIN holds now.
ImportOutcome MergeEquityList(SecurityMaster& master,
                              const std::vector<EquityListEntry>& rows);

// Applies symbol changes to `master`, in whatever order the file lists
// them (chains of renames included). A change whose old symbol is the
// instrument's symbol on the day before `applicable_from` starts a new
// period; a change whose new symbol is an instrument's symbol since before
// `applicable_from` (the equity list imported first, which lists today's
// symbols) gives the earlier part of that period the old symbol. A change
// already recorded is unchanged; one that names no known instrument, or
// would give a symbol to two instruments at once, is rejected.
ImportOutcome ApplySymbolChanges(SecurityMaster& master,
                                 const std::vector<SymbolChange>& rows);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SECURITY_MASTER_H_
