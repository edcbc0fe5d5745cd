// The symbol history a read by symbol covers: the instrument's across its
// renames when the security master knows the symbol; none, so the symbol's
// records as stored, otherwise (docs/api.md section 13.5).
#ifndef MDC_SERVICE_API_INSTRUMENT_SERIES_H_
#define MDC_SERVICE_API_INSTRUMENT_SERIES_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "domain/security_master.h"
#include "storage/instrument_repository.h"

namespace mdc {

// The symbol history of the instrument `symbol` is or was the symbol of;
// nullopt for a symbol the master does not know and for NIFTY.
absl::StatusOr<std::optional<domain::SymbolHistory>> HistoryOfSymbol(
    const std::string& symbol, storage::InstrumentRepository& instruments);

}  // namespace mdc

#endif  // MDC_SERVICE_API_INSTRUMENT_SERIES_H_
