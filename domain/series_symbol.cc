#include "domain/series_symbol.h"

#include "absl/strings/match.h"
#include "domain/observations.h"

namespace mdc::domain {

bool IsNiftySymbol(absl::string_view symbol) {
  return absl::EqualsIgnoreCase(symbol, kNiftySymbol);
}

absl::Status CheckSeriesSymbol(absl::string_view symbol) {
  if (IsNiftySymbol(symbol)) return absl::OkStatus();
  return CheckSymbol(symbol);
}

}  // namespace mdc::domain
