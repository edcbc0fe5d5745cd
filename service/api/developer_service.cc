#include "service/api/developer_service.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/adjustment.h"
#include "domain/admin_requests.h"
#include "domain/as_of.h"
#include "domain/calendar.h"
#include "domain/candles.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/observations.h"
#include "domain/paging.h"
#include "domain/persistence.h"
#include "domain/proto_time.h"
#include "domain/quote_adjustment.h"
#include "domain/series_symbol.h"
#include "domain/time.h"
#include "domain/time_range.h"
#include "service/api/adjusted_reads.h"
#include "service/api/market_reads.h"

namespace mdc {
namespace {

// Snapshots read per round trip when persistence scans a whole range, so
// memory stays bounded whatever the range.
constexpr int kSnapshotScanPage = 100;

absl::Status NothingLatest(absl::string_view what,
                           const domain::BacktestClock& clock) {
  return absl::NotFoundError(
      absl::StrCat("no ", what, " stored ",
                   clock.active() ? "before the backtest clock" : "yet"));
}

// Trims a timeline read of PageReadSize rows to its page and returns the
// token of the next page ("" on the last page).
template <typename Quote>
std::string TrimTimelinePage(std::vector<Quote>& rows, int page_size) {
  if (!domain::TrimToPage(rows, page_size)) return "";
  return domain::EncodePageToken(
      domain::FromTimestamp(rows.back().timestamp()));
}

}  // namespace

grpc::Status DeveloperService::GetList(grpc::ServerContext* context,
                                       const v1::GetListRequest* request,
                                       v1::Shortlist* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        if (!errors.empty()) return errors.ToStatus();
        auto shortlist =
            FindShortlistAsOf(stores.shortlists, kind, request->datetime(),
                              request->timezone(), call.clock);
        if (!shortlist.ok()) return shortlist.status();
        *response = *std::move(shortlist);
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetQuote(grpc::ServerContext* context,
                                        const v1::GetQuoteRequest* request,
                                        v1::StockQuote* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        if (auto s = domain::CheckSeriesSymbol(request->symbol()); !s.ok()) {
          return domain::InvalidField("symbol", s.message());
        }
        auto window = domain::AsOfWindowFor(
            request->datetime(), request->timezone(), call.clock, absl::Now(),
            domain::WhenAbsent::kLatestStored);
        if (!window.ok()) return window.status();
        const SymbolSeries series(request->symbol(), stores.quotes,
                                  stores.nifty);
        auto found = series.Latest(window->not_before, window->at);
        if (!found.ok()) return found.status();
        if (!found->has_value()) {
          const std::string what = absl::StrCat("quote of ", series.name());
          return request->datetime().empty() ? NothingLatest(what, call.clock)
                                             : NothingAsOf(what, window->at);
        }
        *response = **std::move(found);
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetQuoteTimeline(
    grpc::ServerContext* context, const v1::GetQuoteTimelineRequest* request,
    v1::QuoteTimeline* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        errors.AddStatus("symbol",
                         domain::CheckSeriesSymbol(request->symbol()));
        const domain::TimelinePage page = domain::ParseTimelinePage(
            request->page_size(), request->page_token(), errors);
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
        auto read =
            AdjustedSymbolOf(*adjustment, request->symbol(),
                             domain::TradingDay(call.clock.Now(absl::Now())),
                             stores.instruments, stores.quotes, stores.nifty);
        if (!read.ok()) return read.status();
        const SymbolSeries series(request->symbol(), stores.quotes,
                                  stores.nifty, std::move(read->history));
        const domain::AdjustmentFactors& factors = read->factors;
        auto rows = series.Quotes(range->start, range->end, page.after,
                                  domain::PageReadSize(page.size));
        if (!rows.ok()) return rows.status();
        response->set_next_page_token(TrimTimelinePage(*rows, page.size));
        response->set_nse_symbol(series.name());
        for (auto& quote : *rows) {
          domain::AdjustQuote(factors, &quote);
          *response->add_quotes() = std::move(quote);
        }
        if (*adjustment != domain::Adjustment::kRaw) {
          response->set_adjustment(
              std::string(domain::AdjustmentName(*adjustment)));
        }
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetNifty(grpc::ServerContext* context,
                                        const v1::GetNiftyRequest* request,
                                        v1::NiftyQuote* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        auto window = domain::AsOfWindowFor(
            request->datetime(), request->timezone(), call.clock, absl::Now(),
            domain::WhenAbsent::kLatestStored);
        if (!window.ok()) return window.status();
        auto found = stores.nifty.FindLatest(window->not_before, window->at);
        if (!found.ok()) return found.status();
        if (!found->has_value()) {
          return request->datetime().empty()
                     ? NothingLatest("NIFTY quote", call.clock)
                     : NothingAsOf("NIFTY quote", window->at);
        }
        *response = **std::move(found);
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetNiftyTimeline(
    grpc::ServerContext* context, const v1::GetNiftyTimelineRequest* request,
    v1::NiftyTimeline* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        const domain::TimelinePage page = domain::ParseTimelinePage(
            request->page_size(), request->page_token(), errors);
        if (!errors.empty()) return errors.ToStatus();
        auto range = domain::TimeRangeFor(
            request->start_datetime(), request->end_datetime(),
            request->timezone(), call.clock, absl::Now(),
            domain::EndIs::kExclusive);
        if (!range.ok()) return range.status();
        auto rows = stores.nifty.ListRange(range->start, range->end, page.after,
                                           domain::PageReadSize(page.size));
        if (!rows.ok()) return rows.status();
        response->set_next_page_token(TrimTimelinePage(*rows, page.size));
        for (auto& quote : *rows) {
          *response->add_quotes() = std::move(quote);
        }
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetHistoricalCandles(
    grpc::ServerContext* context,
    const v1::GetHistoricalCandlesRequest* request,
    v1::CandleSeries* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        errors.AddStatus("symbol",
                         domain::CheckSeriesSymbol(request->symbol()));
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
        auto read =
            AdjustedSymbolOf(*adjustment, request->symbol(),
                             domain::TradingDay(call.clock.Now(absl::Now())),
                             stores.instruments, stores.quotes, stores.nifty);
        if (!read.ok()) return read.status();
        const SymbolSeries series(request->symbol(), stores.quotes,
                                  stores.nifty, std::move(read->history));
        const domain::AdjustmentFactors& factors = read->factors;
        auto candles = series.Candles(*interval, range->start, range->end,
                                      kCandleScanPage, factors);
        if (!candles.ok()) return candles.status();
        ToProto(series, *interval, *candles, response);
        if (*adjustment != domain::Adjustment::kRaw) {
          response->set_adjustment(
              std::string(domain::AdjustmentName(*adjustment)));
        }
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetShortlistPersistence(
    grpc::ServerContext* context,
    const v1::GetShortlistPersistenceRequest* request,
    v1::ShortlistPersistence* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        if (!errors.empty()) return errors.ToStatus();
        // Snapshots in [start, end]: end is inclusive here (section 5.1).
        auto range = domain::TimeRangeFor(
            request->start_datetime(), request->end_datetime(),
            request->timezone(), call.clock, absl::Now(),
            domain::EndIs::kInclusive);
        if (!range.ok()) return range.status();

        domain::PersistenceCounter counter;
        std::optional<absl::Time> after;
        while (true) {
          auto snapshots =
              stores.shortlists.ListRange(kind.type, kind.scope, range->start,
                                          range->end, after, kSnapshotScanPage);
          if (!snapshots.ok()) return snapshots.status();
          for (const auto& snapshot : *snapshots) counter.Add(snapshot);
          if (static_cast<int>(snapshots->size()) < kSnapshotScanPage) break;
          after = domain::FromTimestamp(snapshots->back().timestamp());
        }
        const domain::Persistence persistence = counter.Finish();
        domain::SetTimestamp(range->asked_start,
                             response->mutable_start_time());
        domain::SetTimestamp(range->asked_end, response->mutable_end_time());
        response->set_type(kind.type);
        response->set_scope(kind.scope);
        response->set_total_snapshots(persistence.total_snapshots);
        for (const auto& symbol : persistence.symbols) {
          auto* out = response->add_instruments();
          out->set_nse_symbol(symbol.nse_symbol);
          out->set_name(symbol.name);
          out->set_appearance_count(symbol.appearance_count);
          out->set_percentage(symbol.percentage);
        }
        return absl::OkStatus();
      });
}

grpc::Status DeveloperService::GetBrokerToken(
    grpc::ServerContext* context, const v1::GetBrokerTokenRequest* request,
    v1::BrokerToken* response) {
  return calls_.Run(context, *request, [&](const CallContext&) -> absl::Status {
    auto token = broker_tokens_.Current(absl::Now());
    if (!token.ok()) return token.status();
    response->set_access_token(token->access_token);
    domain::SetTimestamp(token->expires_at, response->mutable_expires_at());
    return absl::OkStatus();
  });
}

grpc::Status DeveloperService::ListHolidays(
    grpc::ServerContext* context, const v1::ListHolidaysRequest* request,
    v1::ListHolidaysResponse* response) {
  return calls_.Read(
      context, *request, response, reads_,
      [&](const Stores& stores, const CallContext&) -> absl::Status {
        auto year = domain::ResolveYear(request->year(), absl::Now());
        if (!year.ok()) return year.status();
        auto entries = stores.holidays.ListYear(*year);
        if (!entries.ok()) return entries.status();
        for (const auto& entry : *entries) {
          domain::ToProto(entry, response->add_holidays());
        }
        return absl::OkStatus();
      });
}

}  // namespace mdc
