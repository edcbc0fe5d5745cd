// The `symbols` parameter of the reads of many symbols (cross-section,
// candles of several symbols, exports, watches, replay), and the one rule of
// every list parameter of the API (docs/api.md 9.1, "List parameters"): the
// parameter repeats (`symbols=INFY&symbols=TCS`), a value may hold several
// items separated by commas (`symbols=INFY,TCS`; a symbol never holds a
// comma), or both; each item is checked on its own.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SYMBOL_LIST_H_
#define MDC_DOMAIN_SYMBOL_LIST_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "domain/field_errors.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace mdc::domain {

// What a list may hold.
struct SymbolListRule {
  int max_symbols = 1000;
  bool required = false;
  // NIFTY (any case) names the NIFTY 50 index (domain/series_symbol.h) and
  // is answered as "NIFTY"; otherwise only stock symbols.
  bool allow_nifty = false;
};

// The items of a list parameter's values: each value split at commas, in
// order (`{"A,B", "C"}` → A, B, C). An empty value is one empty item.
std::vector<absl::string_view> SplitListValues(
    const google::protobuf::RepeatedPtrField<std::string>& values);

// The symbols of `values`, split at commas (SplitListValues), each checked
// (CheckSymbol, or CheckSeriesSymbol with allow_nifty), without repeats, in the
// order given. Each bad one is recorded in `errors` as `symbols[i]` (i counts
// the split symbols); none when required, or more than max_symbols (counted
// before any per-symbol work), as `symbols`.
std::vector<std::string> ParseSymbolList(
    const google::protobuf::RepeatedPtrField<std::string>& values,
    const SymbolListRule& rule, FieldErrors& errors);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SYMBOL_LIST_H_
