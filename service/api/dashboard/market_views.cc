// DashboardService: views of one moment or one day of the market: a
// shortlist as of an instant with its entries' quotes and trade outcomes, a
// symbol's candles of a session, and its quote timeline of a day.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/candles.h"
#include "domain/dashboard_requests.h"
#include "domain/day_reads.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/minute_bars.h"
#include "domain/outcomes.h"
#include "domain/proto_time.h"
#include "domain/symbol_day.h"
#include "domain/time.h"
#include "service/api/dashboard/dashboard_proto.h"
#include "service/api/dashboard/dashboard_service.h"
#include "service/api/market_reads.h"

namespace mdc {
namespace {

// Quotes read per round trip when a read scans a whole day.
constexpr int kPricePage = 5000;

}  // namespace

grpc::Status DashboardService::GetCandles(grpc::ServerContext* context,
                                          const v1::GetCandlesRequest* request,
                                          v1::CandleSeries* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        domain::CheckSeriesParameter(request->symbol(), "symbol", errors);
        auto day = domain::RequiredDate(request->date(), "date", errors);
        auto interval = domain::ParseInterval(
            request->interval().empty() ? "1minute" : request->interval());
        errors.AddStatus("interval", interval.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = domain::DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        const domain::TimeWindow session =
            domain::SessionReadWindow(*day, *limit);
        const SymbolSeries series(request->symbol(), stores.quotes,
                                  stores.nifty);
        // A session never holds more than domain::kMaxCandles candles.
        std::vector<domain::Candle> candles;
        if (!session.empty()) {
          auto read =
              series.Candles(*interval, session.start, session.end, kPricePage);
          if (!read.ok()) return read.status();
          candles = *std::move(read);
        }
        ToProto(series.name(), *interval, candles, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetShortlist(
    grpc::ServerContext* context, const v1::GetShortlistRequest* request,
    v1::DashboardShortlist* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        const std::optional<double> take_profit =
            OptionalField(request->has_take_profit_percentage(),
                          request->take_profit_percentage());
        const std::optional<double> stop_loss =
            OptionalField(request->has_stop_loss_percentage(),
                          request->stop_loss_percentage());
        domain::CheckOutcomePercentages(take_profit, stop_loss, errors);
        if (!errors.empty()) return errors.ToStatus();
        auto found =
            FindShortlistAsOf(stores.shortlists, kind, request->datetime(),
                              request->timezone(), call.clock);
        if (!found.ok()) return found.status();
        const v1::Shortlist& shortlist = *found;
        // Entries, quotes and outcomes all refer to the snapshot's instant.
        const absl::Time t = domain::FromTimestamp(shortlist.timestamp());
        const absl::CivilDay day = domain::TradingDay(t);

        std::vector<std::string> symbols;
        absl::flat_hash_set<std::string> seen;
        for (const auto& entry : shortlist.entries()) {
          if (seen.insert(entry.nse_symbol()).second) {
            symbols.push_back(entry.nse_symbol());
          }
        }
        auto quotes = stores.quote_batches.FindLatestOfSymbols(
            symbols, domain::DayStart(day), t);
        if (!quotes.ok()) return quotes.status();

        // Both percentages are given or neither (checked above).
        const bool with_outcome = take_profit.has_value();
        std::optional<domain::MinuteBarCache> bars;
        if (with_outcome) {
          std::vector<domain::SymbolDay> keys;
          keys.reserve(symbols.size());
          for (const auto& symbol : symbols) keys.emplace_back(symbol, day);
          auto prices = stores.quote_batches.PricesOfSymbolDays(
              keys, call.clock.CutEnd(domain::FarFuture()));
          if (!prices.ok()) return prices.status();
          bars.emplace(*std::move(prices));
        }

        *response->mutable_timestamp() = shortlist.timestamp();
        response->set_shortlist_type(shortlist.shortlist_type());
        response->set_scope(shortlist.scope());
        for (const auto& entry : shortlist.entries()) {
          v1::DashboardShortlistEntry* out = response->add_entries();
          out->set_nse_symbol(entry.nse_symbol());
          out->set_name(entry.name());
          out->set_price(entry.price());
          auto found_quote = quotes->find(entry.nse_symbol());
          const v1::StockQuote* quote =
              found_quote != quotes->end() ? &found_quote->second : nullptr;
          if (quote != nullptr) *out->mutable_quote() = *quote;
          if (!with_outcome) continue;
          const std::optional<double> entry_price =
              domain::ShortlistEntryPrice(entry, quote);
          if (!entry_price.has_value()) continue;
          *out->mutable_outcome() = domain::ComputeOutcome(
              domain::ShortlistTrade(t, *entry_price, *take_profit, *stop_loss),
              bars->Of(entry.nse_symbol(), day));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetQuoteTimeline(
    grpc::ServerContext* context, const v1::GetDayQuoteTimelineRequest* request,
    v1::QuoteTimeline* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        domain::CheckSeriesParameter(request->symbol(), "symbol", errors);
        auto day = domain::RequiredDate(request->date(), "date", errors);
        if (!errors.empty()) return errors.ToStatus();
        auto limit = domain::DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        const absl::Time start = domain::DayStart(*day);
        const absl::Time end = *limit + absl::Microseconds(1);
        const SymbolSeries series(request->symbol(), stores.quotes,
                                  stores.nifty);
        response->set_nse_symbol(series.name());
        std::optional<absl::Time> after;
        while (true) {
          auto quotes = series.Quotes(start, end, after, kPricePage);
          if (!quotes.ok()) return quotes.status();
          for (auto& quote : *quotes) {
            *response->add_quotes() = std::move(quote);
          }
          if (static_cast<int>(quotes->size()) < kPricePage) break;
          after = domain::FromTimestamp(
              response->quotes(response->quotes_size() - 1).timestamp());
        }
        return absl::OkStatus();
      });
}

}  // namespace mdc
