// The `symbol` of a market read: a stock's NSE symbol, or "NIFTY" (any case)
// for the NIFTY 50 index (docs/api.md section 6). One rule for every read by
// symbol, developer and dashboard alike: quotes as of an instant, timelines,
// candles.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_SERIES_SYMBOL_H_
#define MDC_DOMAIN_SERIES_SYMBOL_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace mdc::domain {

// How answers spell the index.
inline constexpr absl::string_view kNiftySymbol = "NIFTY";

// True when `symbol` names the NIFTY 50 index.
bool IsNiftySymbol(absl::string_view symbol);

// OK for the index or a valid stock symbol (CheckSymbol); the error says
// what a symbol may be.
absl::Status CheckSeriesSymbol(absl::string_view symbol);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SERIES_SYMBOL_H_
