// What the developer and dashboard APIs share to read stored market data
// and answer with it: the as-of shortlist read, its NOT_FOUND message, and
// candles as an mdc.v1.CandleSeries.
#ifndef MDC_SERVICE_API_MARKET_READS_H_
#define MDC_SERVICE_API_MARKET_READS_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"
#include "domain/candles.h"
#include "domain/market_enums.h"
#include "mdc/v1/market.pb.h"
#include "storage/shortlist_repository.h"

namespace mdc {

// NOT_FOUND: no `what` stored on `at`'s trading day at or before `at`.
absl::Status NothingAsOf(absl::string_view what, absl::Time at);

// The latest shortlist of `kind` stored on the trading day of
// `datetime` (query parameter in `timezone`) at or before it; without a
// datetime, as of now (the backtest clock when set). Errors as
// domain::AsOfWindowFor, and NOT_FOUND (NothingAsOf) when there is none.
absl::StatusOr<v1::Shortlist> FindShortlistAsOf(
    storage::ShortlistRepository& shortlists, const domain::ShortlistKind& kind,
    absl::string_view datetime, absl::string_view timezone,
    const domain::BacktestClock& clock);

// `candles` of `symbol` at `interval`, as an answer.
void ToProto(absl::string_view symbol, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles, v1::CandleSeries* out);

}  // namespace mdc

#endif  // MDC_SERVICE_API_MARKET_READS_H_
