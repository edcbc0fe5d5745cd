// What an adjusted read needs from storage: the instrument a symbol names,
// its corporate actions and the closes before their ex-dates, turned into
// the domain's AdjustmentFactors (domain/adjustment.h).
#ifndef MDC_SERVICE_API_ADJUSTED_READS_H_
#define MDC_SERVICE_API_ADJUSTED_READS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "domain/adjustment.h"
#include "storage/instrument_repository.h"
#include "storage/nifty_repository.h"
#include "storage/quote_repository.h"

namespace mdc {

// The factors of `adjustment` for `symbol` as of `as_of`. Identity for raw
// and for the NIFTY 50 index. INVALID_ARGUMENT naming `field` (the
// request's parameter of the symbol) when an adjusted read asks for a
// symbol no instrument of the security master has had.
absl::StatusOr<domain::AdjustmentFactors> AdjustmentFor(
    domain::Adjustment adjustment, const std::string& symbol,
    absl::CivilDay as_of, storage::InstrumentRepository& instruments,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty,
    absl::string_view field = "symbol");

// What a read of `symbol` needs from the security master, from one lookup:
// the symbol history of its instrument (nullopt for a symbol the master
// does not know and for NIFTY; SymbolSeries reads across its renames with
// it, instrument_series.h) and the factors of `adjustment` as of `as_of`.
// Errors as AdjustmentFor's.
struct AdjustedSymbol {
  std::optional<domain::SymbolHistory> history;
  domain::AdjustmentFactors factors;
};
absl::StatusOr<AdjustedSymbol> AdjustedSymbolOf(
    domain::Adjustment adjustment, const std::string& symbol,
    absl::CivilDay as_of, storage::InstrumentRepository& instruments,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty,
    absl::string_view field = "symbol");

// The last stored price of the instrument with symbol history `history`
// before `day`: its latest quote of the nearest earlier trading day with
// one, looking back at most two weeks (under the symbol of that day).
absl::StatusOr<std::optional<double>> PreviousClose(
    const domain::SymbolHistory& history, absl::CivilDay day,
    storage::QuoteRepository& quotes, storage::NiftyRepository& nifty);

}  // namespace mdc

#endif  // MDC_SERVICE_API_ADJUSTED_READS_H_
