// DeveloperService's reads of many symbols in one call: the cross-section
// as of an instant (GetQuotes) and the candles of several symbols
// (GetCandlesOfSymbols).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/adjustment.h"
#include "domain/candles.h"
#include "domain/cross_section.h"
#include "domain/field_errors.h"
#include "domain/paging.h"
#include "domain/proto_time.h"
#include "domain/quote_adjustment.h"
#include "domain/symbol_list.h"
#include "domain/time.h"
#include "domain/time_range.h"
#include "service/api/adjusted_reads.h"
#include "service/api/developer_service.h"
#include "service/api/market_reads.h"

namespace mdc {
namespace {

// The most symbols one GetCandlesOfSymbols names.
constexpr int kMaxCandleSymbols = 100;

}  // namespace

grpc::Status DeveloperService::GetQuotes(grpc::ServerContext* context,
                                         const v1::GetQuotesRequest* request,
                                         v1::QuoteCrossSection* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        auto section =
            domain::ParseCrossSection(*request, call.clock, absl::Now());
        if (!section.ok()) return section.status();
        auto adjustment = domain::ParseAdjustment(request->adjustment());
        if (!adjustment.ok()) {
          return domain::InvalidField("adjustment",
                                      adjustment.status().message());
        }
        const bool adjusted = *adjustment != domain::Adjustment::kRaw;
        if (adjusted && section->symbols.empty()) {
          return domain::InvalidField(
              "adjustment",
              "an adjusted cross-section needs `symbols` (each one of the "
              "security master)");
        }
        const domain::AsOfWindow& window = section->window;
        domain::SetTimestamp(window.at, response->mutable_as_of());
        response->set_trading_day(
            domain::FormatDate(domain::TradingDay(window.at)));
        if (!section->symbols.empty()) {
          std::vector<std::string> missing;
          auto quotes = LatestQuotesOf(stores.quote_batches, stores.nifty,
                                       section->symbols, window.not_before,
                                       window.at, missing);
          if (!quotes.ok()) return quotes.status();
          // Point in time: the actions known on the read's day.
          const absl::CivilDay as_of =
              domain::TradingDay(call.clock.Now(absl::Now()));
          for (auto& quote : *quotes) {
            if (adjusted) {
              auto factors = AdjustmentFor(
                  *adjustment, quote.nse_symbol(), as_of, stores.instruments,
                  stores.quotes, stores.nifty, "symbols");
              if (!factors.ok()) return factors.status();
              domain::AdjustQuote(*factors, &quote);
            }
            *response->add_quotes() = std::move(quote);
          }
          for (auto& symbol : missing) response->add_missing(std::move(symbol));
          if (adjusted) {
            response->set_adjustment(
                std::string(domain::AdjustmentName(*adjustment)));
          }
          return absl::OkStatus();
        }
        auto quotes = stores.quote_batches.FindLatestOfEvery(
            section->after.value_or(""), window.not_before, window.at,
            domain::PageReadSize(section->page_size));
        if (!quotes.ok()) return quotes.status();
        if (domain::TrimToPage(*quotes, section->page_size)) {
          response->set_next_page_token(
              domain::EncodeSymbolPageToken(quotes->back().nse_symbol()));
        }
        for (auto& quote : *quotes) *response->add_quotes() = std::move(quote);
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetCandlesOfSymbols(
    grpc::ServerContext* context, const v1::GetCandlesOfSymbolsRequest* request,
    v1::CandlesOfSymbols* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        domain::SymbolListRule rule;
        rule.max_symbols = kMaxCandleSymbols;
        rule.required = true;
        rule.allow_nifty = true;
        const std::vector<std::string> symbols =
            domain::ParseSymbolList(request->symbols(), rule, errors);
        auto interval = domain::ParseInterval(request->interval());
        errors.AddStatus("interval", interval.status());
        auto adjustment = domain::ParseAdjustment(request->adjustment());
        if (!adjustment.ok())
          errors.AddStatus("adjustment", adjustment.status());
        if (!errors.empty()) return errors.ToStatus();
        auto range = domain::TimeRangeFor(
            request->start_datetime(), request->end_datetime(),
            request->timezone(), call.clock, absl::Now(),
            domain::EndIs::kExclusive);
        if (!range.ok()) return range.status();
        // Point in time: the actions known on the read's day.
        const absl::CivilDay as_of =
            domain::TradingDay(call.clock.Now(absl::Now()));
        response->set_interval(interval->name);
        response->set_interval_minutes(interval->minutes);
        // Each symbol's series is bounded on its own as it is read; the sum
        // is checked after each, so at most twice the bound is ever held.
        int total = 0;
        for (const std::string& symbol : symbols) {
          auto read =
              AdjustedSymbolOf(*adjustment, symbol, as_of, stores.instruments,
                               stores.quotes, stores.nifty, "symbols");
          if (!read.ok()) return read.status();
          const SymbolSeries series(symbol, stores.quotes, stores.nifty,
                                    std::move(read->history));
          const domain::AdjustmentFactors& factors = read->factors;
          auto candles = series.Candles(*interval, range->start, range->end,
                                        kCandleScanPage, factors);
          if (!candles.ok()) return candles.status();
          total += static_cast<int>(candles->size());
          if (total > domain::kMaxCandles) {
            return domain::InvalidField(
                "start_datetime",
                absl::StrCat("the range from start_datetime to end_datetime "
                             "holds more than ",
                             domain::kMaxCandles, " ", interval->name,
                             " candles of all symbols together; ask for "
                             "fewer symbols, a smaller range or a longer "
                             "interval"));
          }
          if (candles->empty()) {
            response->add_missing(series.name());
          } else {
            v1::CandleSeries* out = response->add_series();
            ToProto(series, *interval, *candles, out);
            if (*adjustment != domain::Adjustment::kRaw) {
              out->set_adjustment(
                  std::string(domain::AdjustmentName(*adjustment)));
            }
          }
        }
        return absl::OkStatus();
      });
}

}  // namespace mdc
