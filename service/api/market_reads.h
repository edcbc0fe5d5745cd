// What the developer and dashboard APIs share to read stored market data
// and answer with it: the as-of shortlist read, its NOT_FOUND message, a
// symbol's series (a stock's quotes or the NIFTY 50 index's: one rule,
// domain/series_symbol.h) and its candles as an mdc.v1.CandleSeries.
#ifndef MDC_SERVICE_API_MARKET_READS_H_
#define MDC_SERVICE_API_MARKET_READS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/adjustment.h"
#include "domain/backtest_clock.h"
#include "domain/candles.h"
#include "domain/instrument_series.h"
#include "domain/market_enums.h"
#include "mdc/v1/market.pb.h"
#include "storage/nifty_repository.h"
#include "storage/quote_batch_repository.h"
#include "storage/quote_repository.h"
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

// The stored series a `symbol` parameter names: the NIFTY 50 index's
// quotes for "NIFTY" (any case), else the stock's. Reads in keyset pages
// like the repositories it reads. Given the symbol history of the
// instrument the symbol names in the security master, the series is the
// instrument's across its renames (domain/instrument_series.h): each
// symbol over the days it named the instrument, each record as stored.
class SymbolSeries {
 public:
  // `symbol` must have passed domain::CheckSeriesSymbol.
  SymbolSeries(absl::string_view symbol, storage::QuoteRepository& quotes,
               storage::NiftyRepository& nifty,
               std::optional<domain::SymbolHistory> history = std::nullopt);

  // The symbol as answers spell it ("NIFTY" for the index).
  const std::string& name() const { return name_; }

  // Whether the series is an instrument's across its symbols.
  bool instrument() const { return history_.has_value(); }

  // The symbol the records of the series at `t` are stored under.
  std::string StoredSymbolAt(absl::Time t) const;

  // Up to `limit` priced quotes in [start, end) after `after`, as candles
  // need them.
  absl::StatusOr<std::vector<domain::PricePoint>> PricePoints(
      absl::Time start, absl::Time end, std::optional<absl::Time> after,
      int limit) const;

  // Up to `limit` quotes in [start, end) after `after`, ascending; the
  // index's as stock quotes of the symbol "NIFTY".
  absl::StatusOr<std::vector<v1::StockQuote>> Quotes(
      absl::Time start, absl::Time end, std::optional<absl::Time> after,
      int limit) const;

  // The latest quote in [not_before, at].
  absl::StatusOr<std::optional<v1::StockQuote>> Latest(absl::Time not_before,
                                                       absl::Time at) const;

  // The candles at `interval` in [start, end), read `page` quotes a round
  // trip.
  // Prices and volumes are multiplied by `factors` (identity: as stored).
  absl::StatusOr<std::vector<domain::Candle>> Candles(
      const domain::CandleInterval& interval, absl::Time start, absl::Time end,
      int page,
      const domain::AdjustmentFactors& factors =
          domain::AdjustmentFactors()) const;

 private:
  // What [start, end) reads: the symbol's records, or the instrument's
  // symbols' over their days.
  std::vector<domain::SeriesSegment> Segments(absl::Time start,
                                              absl::Time end) const;

  const std::string name_;
  const bool nifty_;
  const std::optional<domain::SymbolHistory> history_;
  storage::QuoteRepository& quotes_;
  storage::NiftyRepository& nifty_quotes_;
};

// The latest quote in [not_before, at] (within one trading day) of each
// of `symbols` (as domain::ParseSymbolList gives them: "NIFTY" is the
// index), in their order; the symbols without one are added to `missing`,
// in their order.
absl::StatusOr<std::vector<v1::StockQuote>> LatestQuotesOf(
    storage::QuoteBatchRepository& quotes, storage::NiftyRepository& nifty,
    const std::vector<std::string>& symbols, absl::Time not_before,
    absl::Time at, std::vector<std::string>& missing);

// One candle as an answer's.
void ToProto(const domain::Candle& candle, v1::Candle* out);

// `candles` of `symbol` at `interval`, as an answer.
void ToProto(absl::string_view symbol, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles, v1::CandleSeries* out);

// `candles` of `series` at `interval`, as an answer; an instrument's
// candles name the symbol their close was stored under.
void ToProto(const SymbolSeries& series, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles, v1::CandleSeries* out);

}  // namespace mdc

#endif  // MDC_SERVICE_API_MARKET_READS_H_
