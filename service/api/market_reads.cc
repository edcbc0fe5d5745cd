#include "service/api/market_reads.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
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
                           storage::NiftyRepository& nifty,
                           std::optional<domain::SymbolHistory> history)
    : name_(domain::IsNiftySymbol(symbol) ? std::string(domain::kNiftySymbol)
                                          : std::string(symbol)),
      nifty_(domain::IsNiftySymbol(symbol)),
      history_(nifty_ ? std::nullopt : std::move(history)),
      quotes_(quotes),
      nifty_quotes_(nifty) {}

std::vector<domain::SeriesSegment> SymbolSeries::Segments(
    absl::Time start, absl::Time end) const {
  return history_.has_value() ? domain::SegmentsOf(*history_, start, end)
                              : domain::SingleSymbolSegment(name_, start, end);
}

std::string SymbolSeries::StoredSymbolAt(absl::Time t) const {
  if (!history_.has_value()) return name_;
  return domain::SymbolOn(*history_, domain::TradingDay(t)).value_or(name_);
}

namespace {

// Reads up to `limit` records of `segments` after `after`, segment after
// segment (they are in time order and do not overlap, so a keyset page
// that ends in one segment goes on in the next).
template <typename Record, typename ReadSegment>
absl::StatusOr<std::vector<Record>> ReadSegments(
    const std::vector<domain::SeriesSegment>& segments,
    std::optional<absl::Time> after, int limit, ReadSegment read) {
  std::vector<Record> out;
  for (const domain::SeriesSegment& segment : segments) {
    if (static_cast<int>(out.size()) >= limit) break;
    if (after.has_value() && *after >= segment.end) continue;
    auto page = read(segment, after, limit - static_cast<int>(out.size()));
    if (!page.ok()) return page.status();
    if (out.empty()) {
      out = *std::move(page);
    } else {
      for (auto& record : *page) out.push_back(std::move(record));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<domain::PricePoint>> SymbolSeries::PricePoints(
    absl::Time start, absl::Time end, std::optional<absl::Time> after,
    int limit) const {
  if (nifty_) return nifty_quotes_.PricePoints(start, end, after, limit);
  if (!history_.has_value()) {
    return quotes_.PricePoints(name_, start, end, after, limit);
  }
  return ReadSegments<domain::PricePoint>(
      Segments(start, end), after, limit,
      [&](const domain::SeriesSegment& segment, std::optional<absl::Time> from,
          int n) {
        return quotes_.PricePoints(segment.symbol, segment.start, segment.end,
                                   from, n);
      });
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
  if (!nifty_ && !history_.has_value()) {
    return quotes_.ListRange(name_, start, end, after, limit);
  }
  if (!nifty_) {
    return ReadSegments<v1::StockQuote>(
        Segments(start, end), after, limit,
        [&](const domain::SeriesSegment& segment,
            std::optional<absl::Time> from, int n) {
          return quotes_.ListRange(segment.symbol, segment.start, segment.end,
                                   from, n);
        });
  }
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
  if (!nifty_ && !history_.has_value()) {
    return quotes_.FindLatest(name_, not_before, at);
  }
  if (!nifty_) {
    // The latest segment first: the symbol of `at`'s day, then earlier ones.
    const auto segments = Segments(not_before, at + absl::Nanoseconds(1));
    for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
      auto found = quotes_.FindLatest(it->symbol, it->start,
                                      it->end - absl::Nanoseconds(1));
      if (!found.ok() || found->has_value()) return found;
    }
    return std::nullopt;
  }
  auto found = nifty_quotes_.FindLatest(not_before, at);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  return AsStockQuote(**std::move(found));
}

absl::StatusOr<std::vector<v1::StockQuote>> LatestQuotesOf(
    storage::QuoteBatchRepository& quotes, storage::NiftyRepository& nifty,
    const std::vector<std::string>& symbols, absl::Time not_before,
    absl::Time at, std::vector<std::string>& missing) {
  std::vector<std::string> stocks;
  bool wants_nifty = false;
  for (const std::string& symbol : symbols) {
    if (symbol == domain::kNiftySymbol) {
      wants_nifty = true;
    } else {
      stocks.push_back(symbol);
    }
  }
  auto latest = quotes.FindLatestOfSymbols(stocks, not_before, at);
  if (!latest.ok()) return latest.status();
  absl::flat_hash_map<std::string, v1::StockQuote>& found = *latest;
  if (wants_nifty) {
    auto index = nifty.FindLatest(not_before, at);
    if (!index.ok()) return index.status();
    if (index->has_value()) {
      found.emplace(std::string(domain::kNiftySymbol),
                    AsStockQuote(**std::move(index)));
    }
  }
  std::vector<v1::StockQuote> answer;
  answer.reserve(found.size());
  for (const std::string& symbol : symbols) {
    auto it = found.find(symbol);
    if (it == found.end()) {
      missing.push_back(symbol);
    } else {
      answer.push_back(std::move(it->second));
    }
  }
  return answer;
}

absl::StatusOr<std::vector<domain::Candle>> SymbolSeries::Candles(
    const domain::CandleInterval& interval, absl::Time start, absl::Time end,
    int page, const domain::AdjustmentFactors& factors) const {
  return domain::ReadCandles(
      interval, page,
      [&](std::optional<absl::Time> after,
          int limit) -> absl::StatusOr<std::vector<domain::PricePoint>> {
        auto points = PricePoints(start, end, after, limit);
        if (!points.ok() || factors.identity()) return points;
        for (auto& point : *points) point = factors.Adjust(point);
        return points;
      });
}

void ToProto(absl::string_view symbol, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles,
             v1::CandleSeries* out) {
  out->set_symbol(std::string(symbol));
  out->set_interval(interval.name);
  out->set_interval_minutes(interval.minutes);
  for (const domain::Candle& candle : candles) {
    ToProto(candle, out->add_candles());
  }
}

void ToProto(const SymbolSeries& series, const domain::CandleInterval& interval,
             const std::vector<domain::Candle>& candles,
             v1::CandleSeries* out) {
  ToProto(series.name(), interval, candles, out);
  if (!series.instrument()) return;
  for (size_t i = 0; i < candles.size(); ++i) {
    out->mutable_candles(static_cast<int>(i))
        ->set_symbol(series.StoredSymbolAt(candles[i].close_time));
  }
}

void ToProto(const domain::Candle& candle, v1::Candle* out) {
  domain::SetTimestamp(candle.time, out->mutable_time());
  out->set_open(candle.open);
  out->set_high(candle.high);
  out->set_low(candle.low);
  out->set_close(candle.close);
  if (candle.volume.has_value()) out->set_volume(*candle.volume);
}

}  // namespace mdc
