// The `symbols` parameter of the reads of many symbols (cross-section,
// candles of several symbols, exports, watches, replay): repeated, and for
// the reads of data out also several symbols in one value separated by
// commas (`symbols=INFY,TCS`; a symbol never holds a comma), checked one by
// one.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SYMBOL_LIST_H_
#define MDC_DOMAIN_SYMBOL_LIST_H_

#include <string>
#include <vector>

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
  // A value may list several symbols separated by commas. Otherwise each
  // value is one symbol, exactly as the OpenAPI document's repeated
  // parameter has it (the streams' rule), and a comma makes it a bad one.
  bool split_commas = true;
};

// The symbols of `values`, split at commas when the rule says, each checked
// (CheckSymbol, or CheckSeriesSymbol with allow_nifty), without repeats, in the
// order given. Each bad one is recorded in `errors` as `symbols[i]` (i counts
// the split symbols); none when required, or more than max_symbols (counted
// before any per-symbol work), as `symbols`.
std::vector<std::string> ParseSymbolList(
    const google::protobuf::RepeatedPtrField<std::string>& values,
    const SymbolListRule& rule, FieldErrors& errors);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SYMBOL_LIST_H_
