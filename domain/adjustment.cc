#include "domain/adjustment.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "domain/field_errors.h"
#include "domain/text.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<Adjustment> ParseAdjustment(absl::string_view text) {
  if (text.empty() || text == "raw") return Adjustment::kRaw;
  if (text == "split") return Adjustment::kSplit;
  if (text == "all") return Adjustment::kAll;
  return absl::InvalidArgumentError(
      absl::StrCat("must be raw, split or all; got ", QuoteForMessage(text)));
}

absl::string_view AdjustmentName(Adjustment adjustment) {
  switch (adjustment) {
    case Adjustment::kRaw:
      return "raw";
    case Adjustment::kSplit:
      return "split";
    case Adjustment::kAll:
      return "all";
  }
  return "raw";
}

bool Applies(Adjustment adjustment, ActionKind kind) {
  switch (adjustment) {
    case Adjustment::kRaw:
      return false;
    case Adjustment::kSplit:
      return !NeedsPreviousClose(kind);
    case Adjustment::kAll:
      return true;
  }
  return false;
}

absl::StatusOr<AdjustmentFactors> AdjustmentFactors::For(
    Adjustment adjustment, const std::vector<CorporateAction>& actions,
    absl::CivilDay as_of, const PreviousCloseReader& previous_close) {
  AdjustmentFactors out;
  for (const CorporateAction& action : actions) {
    if (action.ex_date > as_of || !Applies(adjustment, action.kind)) continue;
    std::optional<double> close;
    if (NeedsPreviousClose(action.kind)) {
      auto read = previous_close(action.ex_date);
      if (!read.ok()) return read.status();
      close = *read;
    }
    auto factors = FactorsOf(action, close);
    if (!factors.has_value()) continue;
    out.steps_.push_back({action.ex_date, *factors});
  }
  std::stable_sort(
      out.steps_.begin(), out.steps_.end(),
      [](const Step& a, const Step& b) { return a.ex_date < b.ex_date; });
  return out;
}

double AdjustmentFactors::PriceFactor(absl::CivilDay day) const {
  double factor = 1;
  for (const Step& step : steps_) {
    if (step.ex_date > day) factor *= step.factors.price;
  }
  return factor;
}

double AdjustmentFactors::VolumeFactor(absl::CivilDay day) const {
  double factor = 1;
  for (const Step& step : steps_) {
    if (step.ex_date > day) factor *= step.factors.volume;
  }
  return factor;
}

PricePoint AdjustmentFactors::Adjust(const PricePoint& point) const {
  if (steps_.empty()) return point;
  const absl::CivilDay day = TradingDay(point.time);
  PricePoint out = point;
  if (out.last_price.has_value()) *out.last_price *= PriceFactor(day);
  if (out.volume.has_value()) *out.volume *= VolumeFactor(day);
  return out;
}

}  // namespace mdc::domain
