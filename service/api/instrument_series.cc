#include "service/api/instrument_series.h"

#include <utility>

#include "domain/series_symbol.h"

namespace mdc {

absl::StatusOr<std::optional<domain::SymbolHistory>> HistoryOfSymbol(
    const std::string& symbol, storage::InstrumentRepository& instruments) {
  if (domain::IsNiftySymbol(symbol)) return std::nullopt;
  auto record = instruments.FindBySymbol(symbol);
  if (!record.ok()) return record.status();
  if (!record->has_value()) return std::nullopt;
  return std::move((*record)->symbols);
}

}  // namespace mdc
