// Trade outcomes (docs/api.md sections 5.3 and 5.4): given an entry at
// instant t with a target and a stop-loss price, walk the 1-minute candles of
// t's session that start after t's minute and report which level was touched
// first.
//
// Pure functions over candles the caller has built from stored quotes; no
// I/O. Thread-safe.
#ifndef MDC_DOMAIN_OUTCOMES_H_
#define MDC_DOMAIN_OUTCOMES_H_

#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

// What an outcome needs of a 1-minute candle.
struct MinuteBar {
  absl::Time start;  // start of the minute
  double high = 0;
  double low = 0;
};

// entry x (1 + percentage/100), rounded to 6 decimals so that 100 at 5% is
// exactly 105 (the rounded value is both reported and compared).
double PriceAbove(double entry, double percentage);
// entry x (1 - percentage/100), rounded the same way.
double PriceBelow(double entry, double percentage);

struct OutcomeRequest {
  absl::Time entry_time;
  double entry_price = 0;
  double target_price = 0;
  double stop_loss_price = 0;
  // Orders (5.4): report maxGainPercentage when the target is not reached.
  bool report_max_gain = false;
};

// The trade a dashboard shortlist entry stands for (5.3): its entry price is
// the entry's observed price when that is above 0, else the last price of the
// entry's as-of quote (`quote`, null when there is none); without either
// there is nothing to trade (nullopt).
std::optional<double> ShortlistEntryPrice(const v1::ShortlistEntry& entry,
                                          const v1::StockQuote* quote);

// A shortlist trade entered at `at` for `entry_price`, its target and stop
// the given percentages above and below it (PriceAbove, PriceBelow).
OutcomeRequest ShortlistTrade(absl::Time at, double entry_price,
                              double take_profit_percentage,
                              double stop_loss_percentage);

// What an order stored in a run asks (5.4).
struct OrderLevels {
  absl::Time ordered_at;
  double entry_price = 0;
  double stop_loss_price = 0;
  double take_profit_price = 0;
};

// An order's trade: its own levels, but the target `target_gain_percentage`
// above the entry instead of its take-profit when a list asks for one.
// Reports the maximum gain when the target is not reached.
OutcomeRequest OrderTrade(const OrderLevels& order,
                          std::optional<double> target_gain_percentage);

// The outcome of one trade. `bars` are the symbol's 1-minute bars of the
// entry's trading day, ascending; only those inside the regular session
// (09:15-15:30 IST) whose minute starts after the entry's minute count.
//
// Always sets target_price and stop_loss_price. With no counting bar, sets
// nothing else. Otherwise the first bar with low <= stop is the stop event
// and the first with high >= target the target event; the trade ends at the
// earlier of the two, the stop winning a tie (both in one bar). Only the
// ending event gets its time and whole minutes from the entry's minute.
// target_achieved and stop_loss_hit are both set (one true at most). With
// report_max_gain and the target not reached, max_gain_percentage is the
// best high of the bars walked (up to and including the stop bar when the
// stop ended the trade, else the rest of the session) over the entry, in
// percent, rounded to 2 decimals.
v1::TradeOutcome ComputeOutcome(const OutcomeRequest& request,
                                const std::vector<MinuteBar>& bars);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_OUTCOMES_H_
