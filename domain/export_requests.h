// The parameters of the bulk exports (mdc.v1.ExportService), checked: which
// trading days, which symbols, which shortlists, which candle interval.
// Every bad parameter is reported at once, named as clients write it.
//
// Pure functions. Thread-safe.
#ifndef MDC_DOMAIN_EXPORT_REQUESTS_H_
#define MDC_DOMAIN_EXPORT_REQUESTS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/adjustment.h"
#include "domain/backtest_clock.h"
#include "domain/candles.h"
#include "mdc/v1/export.pb.h"

namespace mdc::domain {

// The longest range one export covers, in calendar days (a month of history
// in one file); longer is INVALID_ARGUMENT naming `end_date`.
inline constexpr int kMaxExportDays = 31;
// The most symbols one export names.
inline constexpr int kMaxExportSymbols = 1000;

// The trading days of an export.
struct ExportDays {
  absl::CivilDay first;
  absl::CivilDay last;
  // Exclusive: 00:00 IST of the day after `last`, cut at the backtest
  // clock. Records stamped at or after it are left out.
  absl::Time end;
  // 00:00 IST of `first`.
  absl::Time start;
};

struct QuoteExport {
  ExportDays days;
  std::vector<std::string> symbols;  // empty: every symbol
  Adjustment adjustment = Adjustment::kRaw;
};

struct ShortlistExport {
  ExportDays days;
  std::optional<v1::ShortlistType> type;  // none: every type
  std::optional<v1::Scope> scope;         // none: both scopes
};

struct CandleExport {
  ExportDays days;
  CandleInterval interval;
  std::vector<std::string> symbols;  // "NIFTY" for the index; empty: stocks
  Adjustment adjustment = Adjustment::kRaw;
};

// INVALID_ARGUMENT naming `start_date` (missing, malformed), `end_date`
// (malformed, before the start, more than kMaxExportDays days from it),
// `symbols`/`symbols[i]`, `type`, `scope`, `interval` or `adjustment` (not
// one of the three; adjusted without `symbols`); PERMISSION_DENIED
// (FUTURE_READ) naming `start_date` when the first day starts at or after
// the backtest clock.
absl::StatusOr<QuoteExport> ParseExportQuotes(
    const v1::ExportQuotesRequest& request, const BacktestClock& clock);
absl::StatusOr<ExportDays> ParseExportNifty(
    const v1::ExportNiftyRequest& request, const BacktestClock& clock);
absl::StatusOr<ShortlistExport> ParseExportShortlists(
    const v1::ExportShortlistsRequest& request, const BacktestClock& clock);
absl::StatusOr<CandleExport> ParseExportCandles(
    const v1::ExportCandlesRequest& request, const BacktestClock& clock);

// Whether `shortlist` is one an export of `selection` holds.
bool Selects(const ShortlistExport& selection, const v1::Shortlist& shortlist);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_EXPORT_REQUESTS_H_
