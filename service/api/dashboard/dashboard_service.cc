#include "service/api/dashboard/dashboard_service.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/as_of.h"
#include "domain/candles.h"
#include "domain/daily_analytics.h"
#include "domain/field_errors.h"
#include "domain/market_enums.h"
#include "domain/observations.h"
#include "domain/outcomes.h"
#include "domain/paging.h"
#include "domain/proto_time.h"
#include "domain/runs.h"
#include "domain/sign_in.h"
#include "domain/text.h"
#include "domain/time.h"
#include "service/api/market_reads.h"

namespace mdc {
namespace {

constexpr absl::string_view kRunsPage = "runs";
constexpr absl::string_view kOrdersPage = "orders";

// Quotes read per round trip when a read scans a whole day.
constexpr int kPricePage = 5000;

// "Any stored instant", finite so it encodes as a SQL parameter.
absl::Time FarFuture() {
  return absl::FromCivil(absl::CivilDay(2200, 1, 1), absl::UTCTimeZone());
}

// The same answer for an unknown run, another developer's run and a
// malformed id, so a caller learns nothing about runs it does not own.
absl::Status RunNotFound() { return absl::NotFoundError("run not found"); }

// A required trading date parameter.
absl::StatusOr<absl::CivilDay> RequiredDate(absl::string_view text,
                                            absl::string_view field,
                                            domain::FieldErrors& errors) {
  if (text.empty()) {
    errors.Add(field, "is required: a trading date YYYY-MM-DD");
    return absl::InvalidArgumentError("missing");
  }
  auto day = domain::ParseDate(text);
  errors.AddStatus(field, day.status());
  return day;
}

// The last instant a read of trading day `day` may return: the end of the
// day, cut at the backtest clock. A day that starts at or after the clock is
// PERMISSION_DENIED, like any read of the future.
absl::StatusOr<absl::Time> DayReadLimit(absl::CivilDay day,
                                        const domain::BacktestClock& clock) {
  if (auto allowed = clock.CheckBefore(domain::DayStart(day), "date");
      !allowed.ok()) {
    return allowed;
  }
  return clock.LatestVisible(domain::DayStart(day + 1) - absl::Microseconds(1));
}

// A symbol parameter: required and a plausible NSE symbol.
void CheckSymbolParameter(absl::string_view symbol, absl::string_view field,
                          domain::FieldErrors& errors) {
  if (symbol.empty()) {
    errors.Add(field, "is required");
    return;
  }
  errors.AddStatus(field, domain::CheckSymbol(symbol));
}

const domain::CandleInterval& OneMinute() {
  static const domain::CandleInterval* const interval =
      new domain::CandleInterval(*domain::ParseInterval("1minute"));
  return *interval;
}

// The 1-minute bars of one symbol-day's stored prices (ascending).
std::vector<domain::MinuteBar> MinuteBarsOf(
    const std::vector<domain::PricePoint>& prices) {
  std::vector<domain::MinuteBar> bars;
  const std::vector<domain::Candle> candles =
      domain::BuildCandles(OneMinute(), prices);
  bars.reserve(candles.size());
  for (const domain::Candle& candle : candles) {
    bars.push_back(domain::MinuteBar{candle.time, candle.high, candle.low});
  }
  return bars;
}

// Builds each symbol-day's bars once, however many trades share it.
class MinuteBarCache {
 public:
  explicit MinuteBarCache(
      absl::flat_hash_map<storage::SymbolDay, std::vector<domain::PricePoint>>
          prices)
      : prices_(std::move(prices)) {}

  const std::vector<domain::MinuteBar>& Of(const std::string& symbol,
                                           absl::CivilDay day) {
    storage::SymbolDay key(symbol, day);
    auto it = bars_.find(key);
    if (it != bars_.end()) return it->second;
    auto prices = prices_.find(key);
    std::vector<domain::MinuteBar> bars;
    if (prices != prices_.end()) bars = MinuteBarsOf(prices->second);
    return bars_.emplace(std::move(key), std::move(bars)).first->second;
  }

 private:
  absl::flat_hash_map<storage::SymbolDay, std::vector<domain::PricePoint>>
      prices_;
  absl::flat_hash_map<storage::SymbolDay, std::vector<domain::MinuteBar>> bars_;
};

// A percentage parameter that must be a finite number in [low, high].
void CheckPercentage(std::optional<double> value, absl::string_view field,
                     double low, double high, domain::FieldErrors& errors) {
  if (!value.has_value()) return;
  if (!std::isfinite(*value) || *value < low || *value > high) {
    errors.Add(field,
               std::isinf(high)
                   ? absl::StrCat("must be a number >= ", low)
                   : absl::StrCat("must be a number from ", low, " to ", high));
  }
}

void ToProto(const storage::RunRecord& run, v1::Run* out) {
  out->set_id(absl::StrCat(run.id));
  out->set_name(run.name);
  for (const auto& tag : run.tags) out->add_tags(tag);
  domain::SetTimestamp(run.start_at, out->mutable_start_time());
  domain::SetTimestamp(run.end_at, out->mutable_end_time());
  out->set_completed(run.completed);
  domain::SetTimestamp(run.created_at, out->mutable_created_time());
  out->set_order_count(static_cast<int32_t>(run.order_count));
}

void ToProto(const storage::OrderRecord& order, v1::Order* out) {
  out->set_id(absl::StrCat(order.id));
  out->set_run_id(absl::StrCat(order.run_id));
  out->set_nse_symbol(order.nse_symbol);
  out->set_entry_price(order.entry_price);
  out->set_stop_loss_price(order.stop_loss_price);
  out->set_take_profit_price(order.take_profit_price);
  domain::SetTimestamp(order.ordered_at, out->mutable_time());
  domain::SetTimestamp(order.created_at, out->mutable_created_time());
}

}  // namespace

grpc::Status DashboardService::SignIn(grpc::ServerContext* context,
                                      const v1::SignInRequest* request,
                                      v1::Developer* response) {
  return calls_.Run(
      context, "SignIn", Access::kPublic,
      [&](const CallContext& call) -> absl::Status {
        if (request->developer_token().empty()) {
          return domain::InvalidField("developerToken",
                                      "is required: the developer's token");
        }
        const std::string client = domain::ClientKey(call.client_address);
        auto failures = stores_.sign_ins.FailuresThisMinute(client);
        if (!failures.ok()) return failures.status();
        if (*failures >= domain::kMaxSignInFailuresPerMinute) {
          return absl::ResourceExhaustedError(absl::StrCat(
              "too many failed sign-ins from this address (more than ",
              domain::kMaxSignInFailuresPerMinute,
              " in a minute); try again when the current minute is over"));
        }
        auto caller = auth_.Identify(request->developer_token());
        if (!caller.ok()) {
          if (absl::IsUnauthenticated(caller.status())) {
            if (auto recorded = stores_.sign_ins.RecordFailure(client);
                !recorded.ok()) {
              return recorded;
            }
          }
          return caller.status();
        }
        response->set_id(absl::StrCat(caller->developer_id));
        response->set_username(caller->username);
        response->set_role(RoleName(caller->role));
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::ListAvailableDatetimes(
    grpc::ServerContext* context,
    const v1::ListAvailableDatetimesRequest* request,
    v1::ListAvailableDatetimesResponse* response) {
  return calls_.Run(
      context, "ListAvailableDatetimes", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        std::optional<absl::CivilDay> asked;
        if (!request->date().empty()) {
          auto day = domain::ParseDate(request->date());
          if (!day.ok())
            return domain::InvalidField("date", day.status().message());
          asked = *day;
        }
        const absl::Time not_after = call.clock.LatestVisible(FarFuture());
        auto days = stores_.shortlists.ListDays(not_after);
        if (!days.ok()) return days.status();
        for (const auto& day : *days) {
          v1::AvailableDate* out = response->add_dates();
          out->set_date(domain::FormatDate(day.day));
          out->set_count(day.instants);
          if (asked.has_value() && *asked == day.day) {
            auto instants =
                stores_.shortlists.ListDayInstants(day.day, not_after);
            if (!instants.ok()) return instants.status();
            for (absl::Time t : *instants) {
              domain::SetTimestamp(t, out->add_timestamps());
            }
          }
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetCandles(grpc::ServerContext* context,
                                          const v1::GetCandlesRequest* request,
                                          v1::CandleSeries* response) {
  return calls_.Run(
      context, "GetCandles", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        CheckSymbolParameter(request->symbol(), "symbol", errors);
        auto day = RequiredDate(request->date(), "date", errors);
        auto interval = domain::ParseInterval(
            request->interval().empty() ? "1minute" : request->interval());
        errors.AddStatus("interval", interval.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        // The session's candles: quotes of [09:15, 15:30) IST.
        const absl::Time start = domain::SessionOpen(*day);
        const absl::Time end = std::min(domain::SessionClose(*day),
                                        *limit + absl::Microseconds(1));
        // A session never holds more than domain::kMaxCandles candles.
        std::vector<domain::Candle> candles;
        if (start < end) {
          auto read = domain::ReadCandles(
              *interval, kPricePage,
              [&](std::optional<absl::Time> after, int limit) {
                return stores_.quotes.PricePoints(request->symbol(), start, end,
                                                 after, limit);
              });
          if (!read.ok()) return read.status();
          candles = *std::move(read);
        }
        ToProto(request->symbol(), *interval, candles, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetDailyPersistentCompanies(
    grpc::ServerContext* context,
    const v1::GetDailyPersistentCompaniesRequest* request,
    v1::DailyPersistentCompanies* response) {
  return calls_.Run(
      context, "GetDailyPersistentCompanies", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto day = RequiredDate(request->date(), "date", errors);
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        auto min_percentage = domain::MinPercentageOrDefault(
            request->has_min_percentage()
                ? std::optional<double>(request->min_percentage())
                : std::nullopt);
        errors.AddStatus("minPercentage", min_percentage.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        auto snapshots = stores_.shortlists.ListDaySnapshots(
            kind.type, kind.scope, *day, *limit);
        if (!snapshots.ok()) return snapshots.status();
        const domain::DailyPersistence result =
            domain::PersistentCompanies(*snapshots, *min_percentage);
        response->set_date(domain::FormatDate(*day));
        response->set_type(kind.type);
        response->set_scope(kind.scope);
        response->set_total_snapshots(result.total_snapshots);
        for (const auto& company : result.companies) {
          v1::PersistentCompany* out = response->add_companies();
          out->set_nse_symbol(company.nse_symbol);
          out->set_name(company.name);
          out->set_count(company.count);
          out->set_percentage(company.percentage);
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetDailyUniqueCompanies(
    grpc::ServerContext* context,
    const v1::GetDailyUniqueCompaniesRequest* request,
    v1::DailyUniqueCompanies* response) {
  return calls_.Run(
      context, "GetDailyUniqueCompanies", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto day = RequiredDate(request->date(), "date", errors);
        // No type means every type.
        v1::ShortlistType type = v1::SHORTLIST_TYPE_UNSPECIFIED;
        if (!request->type().empty()) {
          auto parsed = domain::ParseShortlistType(request->type());
          errors.AddStatus("type", parsed.status());
          if (parsed.ok()) type = *parsed;
        }
        auto scope = domain::ParseScope(request->scope());
        errors.AddStatus("scope", scope.status());
        if (!errors.empty()) return errors.ToStatus();
        auto limit = DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        auto snapshots =
            stores_.shortlists.ListDaySnapshots(type, *scope, *day, *limit);
        if (!snapshots.ok()) return snapshots.status();
        const std::vector<std::string> symbols =
            domain::UniqueSymbols(*snapshots);
        response->set_date(domain::FormatDate(*day));
        response->set_type(type);
        response->set_scope(*scope);
        response->set_unique_count(static_cast<int32_t>(symbols.size()));
        for (const auto& symbol : symbols) response->add_symbols(symbol);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetShortlist(
    grpc::ServerContext* context, const v1::GetShortlistRequest* request,
    v1::DashboardShortlist* response) {
  return calls_.Run(
      context, "GetShortlist", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        const domain::ShortlistKind kind = domain::ParseShortlistKind(
            request->type(), request->scope(), errors);
        std::optional<double> take_profit;
        std::optional<double> stop_loss;
        if (request->has_take_profit_percentage()) {
          take_profit = request->take_profit_percentage();
        }
        if (request->has_stop_loss_percentage()) {
          stop_loss = request->stop_loss_percentage();
        }
        CheckPercentage(take_profit, "takeProfitPercentage", 0, INFINITY,
                        errors);
        CheckPercentage(stop_loss, "stopLossPercentage", 0, 100, errors);
        if (take_profit.has_value() != stop_loss.has_value()) {
          errors.Add(take_profit.has_value() ? "stopLossPercentage"
                                             : "takeProfitPercentage",
                     "takeProfitPercentage and stopLossPercentage go "
                     "together: give both for trade outcomes, or neither");
        }
        if (!errors.empty()) return errors.ToStatus();
        auto found =
            FindShortlistAsOf(stores_.shortlists, kind, request->datetime(),
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
        auto quotes = stores_.quote_batches.FindLatestOfSymbols(
            symbols, domain::DayStart(day), t);
        if (!quotes.ok()) return quotes.status();

        const bool with_outcome = take_profit.has_value();
        std::optional<MinuteBarCache> bars;
        if (with_outcome) {
          std::vector<storage::SymbolDay> keys;
          keys.reserve(symbols.size());
          for (const auto& symbol : symbols) keys.emplace_back(symbol, day);
          auto prices = stores_.quote_batches.PricesOfSymbolDays(
              keys, call.clock.CutEnd(FarFuture()));
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
          auto quote = quotes->find(entry.nse_symbol());
          if (quote != quotes->end()) *out->mutable_quote() = quote->second;
          if (!with_outcome) continue;
          // The entry's price is the trade's entry; without one, the
          // quote's last price; without either there is nothing to trade.
          std::optional<double> entry_price;
          if (entry.has_price() && entry.price() > 0) {
            entry_price = entry.price();
          } else if (quote != quotes->end() &&
                     quote->second.quote_data().payload().has_last_price()) {
            entry_price = quote->second.quote_data().payload().last_price();
          }
          if (!entry_price.has_value()) continue;
          domain::OutcomeRequest trade;
          trade.entry_time = t;
          trade.entry_price = *entry_price;
          trade.target_price = domain::PriceAbove(*entry_price, *take_profit);
          trade.stop_loss_price = domain::PriceBelow(*entry_price, *stop_loss);
          *out->mutable_outcome() =
              domain::ComputeOutcome(trade, bars->Of(entry.nse_symbol(), day));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::GetQuoteTimeline(
    grpc::ServerContext* context, const v1::GetDayQuoteTimelineRequest* request,
    v1::QuoteTimeline* response) {
  return calls_.Run(
      context, "GetQuoteTimeline", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        CheckSymbolParameter(request->symbol(), "symbol", errors);
        auto day = RequiredDate(request->date(), "date", errors);
        if (!errors.empty()) return errors.ToStatus();
        auto limit = DayReadLimit(*day, call.clock);
        if (!limit.ok()) return limit.status();
        const absl::Time start = domain::DayStart(*day);
        const absl::Time end = *limit + absl::Microseconds(1);
        response->set_nse_symbol(request->symbol());
        std::optional<absl::Time> after;
        while (true) {
          auto quotes = stores_.quotes.ListRange(request->symbol(), start, end,
                                                after, kPricePage);
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

grpc::Status DashboardService::ListRuns(grpc::ServerContext* context,
                                        const v1::ListRunsRequest* request,
                                        v1::ListRunsResponse* response) {
  return calls_.Run(
      context, "ListRuns", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        std::string tag;
        if (!request->tag().empty()) {
          auto normalized = domain::NormalizeTag(request->tag());
          errors.AddStatus("tag", normalized.status());
          if (normalized.ok()) tag = *normalized;
        }
        auto page_size = domain::PageSize(request->page_size());
        errors.AddStatus("pageSize", page_size.status());
        auto cursor =
            domain::DecodeKeysetToken(kRunsPage, request->page_token());
        errors.AddStatus("pageToken", cursor.status());
        if (!errors.empty()) return errors.ToStatus();
        auto runs = stores_.runs.ListRuns(call.caller.developer_id, tag, *cursor,
                                         *page_size + 1);
        if (!runs.ok()) return runs.status();
        const bool more = static_cast<int>(runs->size()) > *page_size;
        if (more) runs->pop_back();
        for (const auto& run : *runs) ToProto(run, response->add_runs());
        if (more) {
          response->set_next_page_token(domain::EncodeKeysetToken(
              kRunsPage, {runs->back().created_at, runs->back().id}));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::ListRunTags(
    grpc::ServerContext* context, const v1::ListRunTagsRequest* request,
    v1::ListRunTagsResponse* response) {
  return calls_.Run(context, "ListRunTags", Access::kDeveloper,
                    [&](const CallContext& call) -> absl::Status {
                      auto tags =
                          stores_.runs.ListTags(call.caller.developer_id);
                      if (!tags.ok()) return tags.status();
                      for (auto& tag : *tags)
                        response->add_tags(std::move(tag));
                      return absl::OkStatus();
                    });
}

grpc::Status DashboardService::CreateRun(grpc::ServerContext* context,
                                         const v1::CreateRunRequest* request,
                                         v1::Run* response) {
  return calls_.Run(
      context, "CreateRun", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        domain::FieldErrors errors;
        auto zone = domain::ResolveTimeZone(request->timezone());
        errors.AddStatus("timezone", zone.status());
        auto instant =
            [&](const std::string& text,
                absl::string_view field) -> std::optional<absl::Time> {
          if (text.empty()) {
            errors.Add(field,
                       "is required: a wall-clock time "
                       "YYYY-MM-DDTHH:MM:SS in `timezone`");
            return std::nullopt;
          }
          auto civil = domain::ParseWallClock(text);
          errors.AddStatus(field, civil.status());
          if (!civil.ok() || !zone.ok()) return std::nullopt;
          return zone->At(*civil).pre;
        };
        std::optional<absl::Time> start =
            instant(request->start_datetime(), "start_datetime");
        std::optional<absl::Time> end =
            instant(request->end_datetime(), "end_datetime");
        if (start.has_value() && end.has_value() && *start > *end) {
          errors.Add("start_datetime", "must not be after end_datetime");
        }
        domain::CheckRunName(request->name(), "name", errors);
        storage::NewRun run;
        run.tags = domain::NormalizeTags(request->tags(), "tags", errors);
        if (!errors.empty()) return errors.ToStatus();
        run.name = request->name();
        run.start_at = *start;
        run.end_at = *end;
        auto created = stores_.runs.CreateRun(call.caller.developer_id, run);
        if (!created.ok()) return created.status();
        ToProto(*created, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::UpdateRun(grpc::ServerContext* context,
                                         const v1::UpdateRunRequest* request,
                                         v1::Run* response) {
  return calls_.Run(
      context, "UpdateRun", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        storage::RunChanges changes;
        for (const std::string& path : request->update_mask().paths()) {
          if (path.empty()) {
            // The gateway's mask of an empty JSON body.
            continue;
          } else if (path == "completed") {
            changes.completed = request->run().completed();
          } else if (path == "name") {
            domain::CheckRunName(request->run().name(), "name", errors);
            changes.name = request->run().name();
          } else if (path == "tags") {
            changes.tags =
                domain::NormalizeTags(request->run().tags(), "tags", errors);
          } else {
            errors.Add(
                "update_mask",
                absl::StrCat("cannot change ", domain::QuoteForMessage(path),
                             "; a run's changeable fields are "
                             "completed, name and tags"));
          }
        }
        if (!errors.empty()) return errors.ToStatus();
        // Nothing named (an empty body): the run is answered unchanged.
        auto updated =
            changes.completed || changes.name || changes.tags
                ? stores_.runs.UpdateRun(call.caller.developer_id, *run_id,
                                        changes)
                : stores_.runs.FindRun(call.caller.developer_id, *run_id);
        if (!updated.ok()) return updated.status();
        if (!updated->has_value()) return RunNotFound();
        ToProto(**updated, response);
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::DeleteRun(grpc::ServerContext* context,
                                         const v1::DeleteRunRequest* request,
                                         google::protobuf::Empty* response) {
  return calls_.Run(context, "DeleteRun", Access::kDeveloper,
                    [&](const CallContext& call) -> absl::Status {
                      const std::optional<int64_t> run_id =
                          domain::ParseRunId(request->run_id());
                      if (!run_id.has_value()) return RunNotFound();
                      auto deleted = stores_.runs.DeleteRun(
                          call.caller.developer_id, *run_id);
                      if (!deleted.ok()) return deleted.status();
                      if (!*deleted) return RunNotFound();
                      return absl::OkStatus();
                    });
}

grpc::Status DashboardService::ListOrders(grpc::ServerContext* context,
                                          const v1::ListOrdersRequest* request,
                                          v1::ListOrdersResponse* response) {
  return calls_.Run(
      context, "ListOrders", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        std::optional<double> gain;
        if (request->has_target_gain_percentage()) {
          gain = request->target_gain_percentage();
        }
        CheckPercentage(gain, "targetGainPercentage", 0, INFINITY, errors);
        auto page_size = domain::PageSize(request->page_size());
        errors.AddStatus("pageSize", page_size.status());
        auto cursor =
            domain::DecodeKeysetToken(kOrdersPage, request->page_token());
        errors.AddStatus("pageToken", cursor.status());
        if (!errors.empty()) return errors.ToStatus();
        auto run = stores_.runs.FindRun(call.caller.developer_id, *run_id);
        if (!run.ok()) return run.status();
        if (!run->has_value()) return RunNotFound();

        auto orders = stores_.runs.ListOrders(*run_id, *cursor, *page_size + 1);
        if (!orders.ok()) return orders.status();
        const bool more = static_cast<int>(orders->size()) > *page_size;
        if (more) orders->pop_back();

        // Every symbol-day the page needs, fetched in one statement.
        std::vector<storage::SymbolDay> keys;
        absl::flat_hash_set<storage::SymbolDay> seen;
        for (const auto& order : *orders) {
          storage::SymbolDay key(order.nse_symbol,
                                 domain::TradingDay(order.ordered_at));
          if (seen.insert(key).second) keys.push_back(std::move(key));
        }
        auto prices = stores_.quote_batches.PricesOfSymbolDays(
            keys, call.clock.CutEnd(FarFuture()));
        if (!prices.ok()) return prices.status();
        MinuteBarCache bars(*std::move(prices));

        for (const auto& order : *orders) {
          v1::Order* out = response->add_orders();
          ToProto(order, out);
          domain::OutcomeRequest trade;
          trade.entry_time = order.ordered_at;
          trade.entry_price = order.entry_price;
          trade.target_price =
              gain.has_value() ? domain::PriceAbove(order.entry_price, *gain)
                               : order.take_profit_price;
          trade.stop_loss_price = order.stop_loss_price;
          trade.report_max_gain = true;
          *out->mutable_outcome() = domain::ComputeOutcome(
              trade,
              bars.Of(order.nse_symbol, domain::TradingDay(order.ordered_at)));
        }
        if (more) {
          response->set_next_page_token(domain::EncodeKeysetToken(
              kOrdersPage, {orders->back().ordered_at, orders->back().id}));
        }
        return absl::OkStatus();
      });
}

grpc::Status DashboardService::CreateOrder(
    grpc::ServerContext* context, const v1::CreateOrderRequest* request,
    v1::Order* response) {
  return calls_.Run(
      context, "CreateOrder", Access::kDeveloper,
      [&](const CallContext& call) -> absl::Status {
        const std::optional<int64_t> run_id =
            domain::ParseRunId(request->run_id());
        if (!run_id.has_value()) return RunNotFound();
        domain::FieldErrors errors;
        CheckSymbolParameter(request->nse_symbol(), "nseSymbol", errors);
        domain::CheckOrderPrices(
            request->has_entry_price()
                ? std::optional<double>(request->entry_price())
                : std::nullopt,
            request->has_stop_loss_price()
                ? std::optional<double>(request->stop_loss_price())
                : std::nullopt,
            request->has_take_profit_price()
                ? std::optional<double>(request->take_profit_price())
                : std::nullopt,
            errors);
        auto zone = domain::ResolveTimeZone(request->timezone());
        errors.AddStatus("timezone", zone.status());
        std::optional<absl::Time> at;
        if (request->datetime().empty()) {
          errors.Add("datetime",
                     "is required: the order's wall-clock time "
                     "YYYY-MM-DDTHH:MM:SS in `timezone`");
        } else {
          auto civil = domain::ParseWallClock(request->datetime());
          errors.AddStatus("datetime", civil.status());
          if (civil.ok() && zone.ok()) at = zone->At(*civil).pre;
        }
        if (!errors.empty()) return errors.ToStatus();
        storage::NewOrder order;
        order.nse_symbol = request->nse_symbol();
        order.entry_price = request->entry_price();
        order.stop_loss_price = request->stop_loss_price();
        order.take_profit_price = request->take_profit_price();
        order.ordered_at = *at;
        auto created =
            stores_.runs.CreateOrder(call.caller.developer_id, *run_id, order);
        if (!created.ok()) return created.status();
        if (!created->has_value()) return RunNotFound();
        ToProto(**created, response);
        return absl::OkStatus();
      });
}

}  // namespace mdc
