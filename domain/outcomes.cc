#include "domain/outcomes.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

double RoundTo(double value, double scale) {
  return std::round(value * scale) / scale;
}

// The start of the minute `t` falls in (IST is a whole number of minutes
// off UTC, so UTC minutes are exchange minutes).
absl::Time MinuteOf(absl::Time t) {
  return absl::UnixEpoch() +
         absl::Floor(t - absl::UnixEpoch(), absl::Minutes(1));
}

int WholeMinutes(absl::Time from, absl::Time to) {
  return static_cast<int>(absl::ToInt64Minutes(to - from));
}

}  // namespace

double PriceAbove(double entry, double percentage) {
  return RoundTo(entry * (100.0 + percentage) / 100.0, 1e6);
}

double PriceBelow(double entry, double percentage) {
  return RoundTo(entry * (100.0 - percentage) / 100.0, 1e6);
}

std::optional<double> ShortlistEntryPrice(const v1::ShortlistEntry& entry,
                                          const v1::StockQuote* quote) {
  if (entry.has_price() && entry.price() > 0) return entry.price();
  if (quote != nullptr && quote->quote_data().payload().has_last_price()) {
    return quote->quote_data().payload().last_price();
  }
  return std::nullopt;
}

OutcomeRequest ShortlistTrade(absl::Time at, double entry_price,
                              double take_profit_percentage,
                              double stop_loss_percentage) {
  OutcomeRequest trade;
  trade.entry_time = at;
  trade.entry_price = entry_price;
  trade.target_price = PriceAbove(entry_price, take_profit_percentage);
  trade.stop_loss_price = PriceBelow(entry_price, stop_loss_percentage);
  return trade;
}

OutcomeRequest OrderTrade(const OrderLevels& order,
                          std::optional<double> target_gain_percentage) {
  OutcomeRequest trade;
  trade.entry_time = order.ordered_at;
  trade.entry_price = order.entry_price;
  trade.target_price =
      target_gain_percentage.has_value()
          ? PriceAbove(order.entry_price, *target_gain_percentage)
          : order.take_profit_price;
  trade.stop_loss_price = order.stop_loss_price;
  trade.report_max_gain = true;
  return trade;
}

v1::TradeOutcome ComputeOutcome(const OutcomeRequest& request,
                                const std::vector<MinuteBar>& bars) {
  v1::TradeOutcome outcome;
  outcome.set_target_price(request.target_price);
  outcome.set_stop_loss_price(request.stop_loss_price);

  const absl::Time entry_minute = MinuteOf(request.entry_time);
  const absl::CivilDay day = TradingDay(request.entry_time);
  const absl::Time open = SessionOpen(day);
  const absl::Time close = SessionClose(day);

  bool walked_any = false;
  std::optional<double> best_high;
  const MinuteBar* target_bar = nullptr;
  const MinuteBar* stop_bar = nullptr;
  for (const MinuteBar& bar : bars) {
    if (bar.start <= entry_minute || bar.start < open) continue;
    if (bar.start >= close) break;
    walked_any = true;
    best_high =
        best_high.has_value() ? std::max(*best_high, bar.high) : bar.high;
    // The stop is checked first: touching both in one bar counts as stopped,
    // since the order of the touches inside the minute is unknown.
    if (bar.low <= request.stop_loss_price) {
      stop_bar = &bar;
      break;
    }
    if (bar.high >= request.target_price) {
      target_bar = &bar;
      break;
    }
  }
  if (!walked_any) return outcome;

  outcome.set_target_achieved(target_bar != nullptr);
  outcome.set_stop_loss_hit(stop_bar != nullptr);
  if (target_bar != nullptr) {
    SetTimestamp(target_bar->start, outcome.mutable_target_time());
    outcome.set_minutes_to_target(
        WholeMinutes(entry_minute, target_bar->start));
  }
  if (stop_bar != nullptr) {
    SetTimestamp(stop_bar->start, outcome.mutable_stop_loss_time());
    outcome.set_minutes_to_stop_loss(
        WholeMinutes(entry_minute, stop_bar->start));
  }
  if (request.report_max_gain && target_bar == nullptr &&
      request.entry_price > 0) {
    outcome.set_max_gain_percentage(RoundTo(
        (*best_high - request.entry_price) / request.entry_price * 100.0,
        100.0));
  }
  return outcome;
}

}  // namespace mdc::domain
