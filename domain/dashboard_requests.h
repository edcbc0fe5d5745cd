// Validation of dashboard request parameters that several routes share:
// a required trading date, a required wall-clock time, a required symbol,
// and the percentages that set trade outcome levels.
//
// Each records its violations in a FieldErrors under the JSON name the
// caller gives, so one answer lists every bad parameter. Pure functions.
#ifndef MDC_DOMAIN_DASHBOARD_REQUESTS_H_
#define MDC_DOMAIN_DASHBOARD_REQUESTS_H_

#include <optional>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/field_errors.h"

namespace mdc::domain {

// A required trading date "YYYY-MM-DD". An empty or malformed one is
// recorded under `field` and also returned as an error, so the caller need
// not look at `errors` to know the date is unusable.
absl::StatusOr<absl::CivilDay> RequiredDate(absl::string_view text,
                                            absl::string_view field,
                                            FieldErrors& errors);

// A required wall-clock time "YYYY-MM-DDTHH:MM:SS" in the request's
// `timezone` (resolved by the caller, which records its error): missing is
// recorded under `field` as "is required: <what> YYYY-MM-DDTHH:MM:SS in
// `timezone`", malformed with the parser's message. The instant, or nullopt
// when the text or the zone is unusable. A wall clock a DST change repeats
// or skips resolves to the earlier instant.
std::optional<absl::Time> RequiredWallClock(
    absl::string_view text, const absl::StatusOr<absl::TimeZone>& zone,
    absl::string_view field, absl::string_view what, FieldErrors& errors);

// A required symbol: present and a plausible NSE symbol (CheckSymbol).
void CheckSymbolParameter(absl::string_view symbol, absl::string_view field,
                          FieldErrors& errors);

// A required symbol of a market series: present, and a plausible NSE
// symbol or the index "NIFTY" (CheckSeriesSymbol).
void CheckSeriesParameter(absl::string_view symbol, absl::string_view field,
                          FieldErrors& errors);

// An optional percentage: absent is fine; given, it must be a finite number
// in [low, high] (high may be infinite: no upper bound).
void CheckPercentage(std::optional<double> value, absl::string_view field,
                     double low, double high, FieldErrors& errors);

// An optional take-profit or target-gain percentage: a number from 0 to
// kMaxGainPercentage (domain/number_limits.h).
void CheckGainPercentage(std::optional<double> value, absl::string_view field,
                         FieldErrors& errors);

// The trade levels of a dashboard shortlist (docs/api.md 5.3):
// takeProfitPercentage in [0, 1000] and stopLossPercentage in [0, 100], given
// together (outcomes wanted) or not at all.
void CheckOutcomePercentages(std::optional<double> take_profit,
                             std::optional<double> stop_loss,
                             FieldErrors& errors);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_DASHBOARD_REQUESTS_H_
