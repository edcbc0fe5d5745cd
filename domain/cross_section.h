// The cross-section read (GetQuotes): the latest quote of each of many
// symbols at or before one instant, within its trading day. Which symbols,
// as of when, and which page of "every symbol of the day".
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_CROSS_SECTION_H_
#define MDC_DOMAIN_CROSS_SECTION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/as_of.h"
#include "domain/backtest_clock.h"
#include "mdc/v1/developer.pb.h"

namespace mdc::domain {

// The most symbols one cross-section names, and the most symbols a page of
// "every symbol" holds (also its default size).
inline constexpr int kMaxCrossSectionSymbols = 1000;

struct CrossSection {
  AsOfWindow window;
  // The symbols asked for ("NIFTY" for the index), without repeats, in
  // order; empty: every symbol of the day, a page at a time.
  std::vector<std::string> symbols;
  int page_size = kMaxCrossSectionSymbols;
  std::optional<std::string> after;  // resume after this symbol
};

// INVALID_ARGUMENT naming `symbols`/`symbols[i]`, `pageSize`, `pageToken`
// (also when given with `symbols`), `datetime` or `timezone`;
// PERMISSION_DENIED (FUTURE_READ) when `datetime` is at or after the
// backtest clock. Without `datetime`, as of now (the clock when set).
absl::StatusOr<CrossSection> ParseCrossSection(
    const v1::GetQuotesRequest& request, const BacktestClock& clock,
    absl::Time wall_now);

// The page token that resumes "every symbol" after `symbol`.
std::string EncodeSymbolPageToken(absl::string_view symbol);

// Empty → nullopt. A token EncodeSymbolPageToken did not make →
// INVALID_ARGUMENT (the caller names the parameter).
absl::StatusOr<std::optional<std::string>> DecodeSymbolPageToken(
    absl::string_view token);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_CROSS_SECTION_H_
