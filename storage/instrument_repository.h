// The security master (tables instruments, instrument_symbols) and the
// corporate actions (table corporate_actions). Imports load the master,
// merge with the domain's rules (domain/security_master.h) and write what
// changed, in one transaction that holds the master's lock, so two imports
// never interleave and an import is all-or-nothing.
//
// Thread-safe (each call checks out its own connection).
#ifndef MDC_STORAGE_INSTRUMENT_REPOSITORY_H_
#define MDC_STORAGE_INSTRUMENT_REPOSITORY_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "domain/corporate_actions.h"
#include "domain/security_master.h"
#include "storage/pool.h"

namespace mdc::storage {

// An instrument with its symbol history.
struct InstrumentRecord {
  domain::Instrument instrument;
  domain::SymbolHistory symbols;
};

// How ListInstruments finds instruments.
struct InstrumentQuery {
  std::string symbol;  // ever called so
  std::string isin;
  std::string prefix;  // of the name, any case
};

class InstrumentRepository {
 public:
  explicit InstrumentRepository(ConnectionPool& pool) : pool_(pool) {}

  // Merge EQUITY_L rows / apply symbol changes (domain rules); rows the
  // rules reject are in the outcome and change nothing.
  absl::StatusOr<domain::ImportOutcome> ImportEquityList(
      const std::vector<domain::EquityListEntry>& rows);
  absl::StatusOr<domain::ImportOutcome> ImportSymbolChanges(
      const std::vector<domain::SymbolChange>& rows);

  // Stores the actions of `rows`, each tied to the instrument its symbol
  // names on its ex-date; a row whose symbol names none is rejected. A row
  // whose actions are all stored already counts as unchanged.
  absl::StatusOr<domain::ImportOutcome> ImportCorporateActions(
      const std::vector<domain::CorporateActionRow>& rows);

  // Instruments matching `query` (one of its fields set), by ISIN; at most
  // `limit`.
  absl::StatusOr<std::vector<InstrumentRecord>> List(
      const InstrumentQuery& query, int limit);

  // The instrument whose symbol `symbol` is or was (the latest such period
  // when two instruments carried it), with its history; nullopt when none.
  absl::StatusOr<std::optional<InstrumentRecord>> FindBySymbol(
      const std::string& symbol);

  // Stores one action of `isin` (`symbol`: its symbol on the ex-date):
  // true when added, false when the same action (key and numbers) was
  // stored already; FAILED_PRECONDITION when an action with its key
  // (ISIN, ex-date, kind, description) is stored with other numbers.
  absl::StatusOr<bool> EnterAction(const std::string& isin,
                                   const std::string& symbol,
                                   const domain::CorporateAction& action);

  // The actions of `isin` with ex-date in [first, last], ascending by
  // ex-date.
  absl::StatusOr<std::vector<domain::CorporateAction>> Actions(
      const std::string& isin, absl::CivilDay first, absl::CivilDay last);

 private:
  ConnectionPool& pool_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_INSTRUMENT_REPOSITORY_H_
