// A (symbol, trading day) pair: the unit in which outcomes read prices and
// build 1-minute bars, since a trade never looks past its own session.
#ifndef MDC_DOMAIN_SYMBOL_DAY_H_
#define MDC_DOMAIN_SYMBOL_DAY_H_

#include <string>
#include <utility>

#include "absl/time/civil_time.h"

namespace mdc::domain {

// NSE symbol and Asia/Kolkata trading day.
using SymbolDay = std::pair<std::string, absl::CivilDay>;

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_SYMBOL_DAY_H_
