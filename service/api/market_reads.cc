#include "service/api/market_reads.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/as_of.h"
#include "domain/market_enums.h"
#include "domain/proto_time.h"
#include "domain/series_symbol.h"
#include "domain/time.h"

namespace mdc {

absl::Status NothingAsOf(absl::string_view what, absl::Time at) {
  return absl::NotFoundError(
      absl::StrCat("no ", what, " stored on trading day ",
                   domain::FormatDate(domain::TradingDay(at)), " at or before ",
                   domain::FormatInstant(at)));
}

absl::StatusOr<v1::Shortlist> FindShortlistAsOf(
    storage::ShortlistRepository& shortlists, const domain::ShortlistKind& kind,
    absl::string_view datetime, absl::string_view timezone,
    const domain::BacktestClock& clock) {
  auto window = domain::AsOfWindowFor(datetime, timezone, clock, absl::Now(),
                                      domain::WhenAbsent::kNow);
  if (!window.ok()) return window.status();
  auto found = shortlists.FindLatest(kind.type, kind.scope, window->not_before,
                                     window->at);
  if (!found.ok()) return found.status();
  if (!found->has_value()) {
    return NothingAsOf(
        absl::StrCat(domain::ShortlistTypeName(kind.type), " ",
                     domain::ScopeName(kind.scope), " shortlist"),
        window->at);
  }
  return **std::move(found);
}

SymbolSeries::SymbolSeries(absl::string_view symbol,
                           storage::QuoteRepository& quotes,
                           storage::NiftyRepository& nifty)
    : name_(domain::IsNiftySymbol(symbol) ? std::string(domain::kNiftySymbol)
                                          : std::string(symbol)),
      nifty_(domain::IsNiftySymbol(symbol)),
      quotes_(quotes),
      nifty_quotes_(nifty) {}

absl::StatusOr<std::vector<domain::PricePoint>> SymbolSeries::PricePoints(
    absl::Time start, absl::Time end, std::optional<absl::Time> after,
    int limit) const {
  return nifty_ ? nifty_quotes_.PricePoints(start, end, after, limit)
                : quotes_.PricePoints(name_, start, end, after, limit);
}

namespace {

// The index's quote as a stock quote of the symbol "NIFTY".
v1::StockQuote AsStockQuote(v1::NiftyQuote&& nifty) {
  v1::StockQuote quote;
  *quote.mutable_timestamp() = std::move(*nifty.mutable_timestamp());
  quote.set_nse_symbol(std::string(domain::kNiftySymbol));
  *quote.mutable_quote_data() = std::move(*nifty.mutable_quote_data());
  return quote;
}

}  // namespace

absl::StatusOr<std::vector<v1::StockQuote>> SymbolSeries::Quotes(
    absl::Time start, absl::Time end, std::optional<absl::Time> after,
    int limit) const {
  if (!nifty_) return quotes_.ListRange(name_, start, end, after, limit);
  auto rows = nifty_quotes_.ListRange(start, end, after, limit);
  if (!rows.ok()) return rows.status();
  std::vector<v1::StockQuote> quotes;
  quotes.reserve(rows->size());
  for (v1::NiftyQuote& row : *rows)
    quotes.push_back(AsStockQuote(std::move(row)));
  return quotes;
}

absl::StatusOr<std::optional<v1::StockQuote>> SymbolSeries::Latest(
    absl::Time not_before, absl::Time at) const {
  if (!nifty_) return quotes_.FindLatest(name_, not_before, at);
  auto found = nifty_quotes_.FindLatest(not_before, at);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  return AsStockQuote(**std::move(found));
}

absl::StatusOr<std::vector<domain::Candle>> SymbolSeries::Candles(
    const domain::CandleInterval& interval, absl::Time start, absl::Time end,
    int page) const {
  return domain::ReadCandles(interval, page,
                             [&](std::optional<absl::Time> after, int limit) {
                               return PricePoints(start, end, after, limit);
                             });
}

void ToProto(absl::string_view symbol, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles,
             v1::CandleSeries* out) {
  out->set_symbol(std::string(symbol));
  out->set_interval(interval.name);
  out->set_interval_minutes(interval.minutes);
  for (const domain::Candle& candle : candles) {
    v1::Candle* proto = out->add_candles();
    domain::SetTimestamp(candle.time, proto->mutable_time());
    proto->set_open(candle.open);
    proto->set_high(candle.high);
    proto->set_low(candle.low);
    proto->set_close(candle.close);
    proto->set_volume(candle.volume);
  }
}

}  // namespace mdc
