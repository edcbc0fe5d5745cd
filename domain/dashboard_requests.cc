#include "domain/dashboard_requests.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/number_limits.h"
#include "domain/observations.h"
#include "domain/series_symbol.h"
#include "domain/time.h"

namespace mdc::domain {

absl::StatusOr<absl::CivilDay> RequiredDate(absl::string_view text,
                                            absl::string_view field,
                                            FieldErrors& errors) {
  if (text.empty()) {
    errors.Add(field, "is required: a trading date YYYY-MM-DD");
    return absl::InvalidArgumentError("missing");
  }
  auto day = ParseDate(text);
  errors.AddStatus(field, day.status());
  return day;
}

void CheckSymbolParameter(absl::string_view symbol, absl::string_view field,
                          FieldErrors& errors) {
  if (symbol.empty()) {
    errors.Add(field, "is required");
    return;
  }
  errors.AddStatus(field, CheckSymbol(symbol));
}

void CheckSeriesParameter(absl::string_view symbol, absl::string_view field,
                          FieldErrors& errors) {
  if (symbol.empty()) {
    errors.Add(field, "is required");
    return;
  }
  errors.AddStatus(field, CheckSeriesSymbol(symbol));
}

void CheckPercentage(std::optional<double> value, absl::string_view field,
                     double low, double high, FieldErrors& errors) {
  if (!value.has_value()) return;
  if (!std::isfinite(*value) || *value < low || *value > high) {
    errors.Add(field,
               std::isinf(high)
                   ? absl::StrCat("must be a number >= ", low)
                   : absl::StrCat("must be a number from ", low, " to ", high));
  }
}

void CheckGainPercentage(std::optional<double> value, absl::string_view field,
                         FieldErrors& errors) {
  CheckPercentage(value, field, 0, kMaxGainPercentage, errors);
}

void CheckOutcomePercentages(std::optional<double> take_profit,
                             std::optional<double> stop_loss,
                             FieldErrors& errors) {
  CheckGainPercentage(take_profit, "takeProfitPercentage", errors);
  CheckPercentage(stop_loss, "stopLossPercentage", 0, 100, errors);
  if (take_profit.has_value() != stop_loss.has_value()) {
    errors.Add(
        take_profit.has_value() ? "stopLossPercentage" : "takeProfitPercentage",
        "takeProfitPercentage and stopLossPercentage go together: "
        "give both for trade outcomes, or neither");
  }
}

std::optional<absl::Time> RequiredWallClock(
    absl::string_view text, const absl::StatusOr<absl::TimeZone>& zone,
    absl::string_view field, absl::string_view what, FieldErrors& errors) {
  if (text.empty()) {
    errors.Add(field, absl::StrCat("is required: ", what,
                                   " YYYY-MM-DDTHH:MM:SS in `timezone`"));
    return std::nullopt;
  }
  auto civil = ParseWallClock(text);
  errors.AddStatus(field, civil.status());
  if (!civil.ok() || !zone.ok()) return std::nullopt;
  auto at = SupportedInstantAt(*civil, *zone);
  errors.AddStatus(field, at.status());
  if (!at.ok()) return std::nullopt;
  return *at;
}

}  // namespace mdc::domain
