// Adjusted reads: stored prices are what was traded (raw); a read asked
// with `adjustment=split` or `all` multiplies them at read time by the
// factors of the corporate actions that came after them, never rewriting
// what was stored (docs/api.md, "Adjusted reads").
//
// A record of trading day d is multiplied by the product of the price
// factors of every applied action whose ex-date is after d, and its volume
// by the product of their volume factors. Point in time: a read as of day D
// applies only actions whose ex-date is on or before D, so a backtest at D
// never learns of a split announced for later.
//
// Pure functions and a plain value type; thread-compatible.
#ifndef MDC_DOMAIN_ADJUSTMENT_H_
#define MDC_DOMAIN_ADJUSTMENT_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "domain/candles.h"
#include "domain/corporate_actions.h"

namespace mdc::domain {

enum class Adjustment {
  kRaw,    // what was stored
  kSplit,  // splits, bonuses, consolidations
  kAll,    // also dividends and rights issues
};

// "raw" (also empty: the default), "split" or "all", exactly. Anything else
// is INVALID_ARGUMENT listing the three (the caller names the field).
absl::StatusOr<Adjustment> ParseAdjustment(absl::string_view text);

absl::string_view AdjustmentName(Adjustment adjustment);

// True when `adjustment` applies actions of `kind`.
bool Applies(Adjustment adjustment, ActionKind kind);

// The previous close of an instrument before a day: the last stored price
// stamped before that day (raw), nullopt when none is stored.
using PreviousCloseReader =
    std::function<absl::StatusOr<std::optional<double>>(absl::CivilDay)>;

// The factors of one instrument's actions for one read.
class AdjustmentFactors {
 public:
  // No adjustment: every factor 1.
  AdjustmentFactors() = default;

  // The factors `adjustment` applies of `actions` (any order) with ex-date
  // on or before `as_of`. Dividends and rights issues ask `previous_close`
  // for the close before their ex-date; one without a usable close is left
  // out (FactorsOf). Fails with the first failed read.
  static absl::StatusOr<AdjustmentFactors> For(
      Adjustment adjustment, const std::vector<CorporateAction>& actions,
      absl::CivilDay as_of, const PreviousCloseReader& previous_close);

  // Price and volume multipliers of a record of trading day `day`.
  double PriceFactor(absl::CivilDay day) const;
  double VolumeFactor(absl::CivilDay day) const;

  // True when every factor is 1 (nothing to do).
  bool identity() const { return steps_.empty(); }

  // `point` adjusted: last_price times the price factor of its trading day,
  // its cumulative volume times the volume factor (so each candle's volume,
  // a sum of increases within one day, scales alike).
  PricePoint Adjust(const PricePoint& point) const;

 private:
  struct Step {
    absl::CivilDay ex_date;
    ActionFactors factors;
  };
  std::vector<Step> steps_;  // ascending ex_date
};

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_ADJUSTMENT_H_
