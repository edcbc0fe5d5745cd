// Bounds on the numbers clients send (docs/api.md section 9). They lie far
// inside what a double holds, so everything computed from a stored number
// (outcome prices, gains, candle volumes) stays finite: before them, an
// order at 6e306 with a large take-profit percentage got an outcome
// targetPrice of Infinity, which JSON cannot carry as a number.
#ifndef MDC_DOMAIN_NUMBER_LIMITS_H_
#define MDC_DOMAIN_NUMBER_LIMITS_H_

#include <cmath>

namespace mdc::domain {

// The largest magnitude of a number a collector or an order sends: prices,
// every quote payload number, dayChangePerc. Below 2^53, so whole numbers
// up to it (volumes, epoch milliseconds) are exact; a thousand times it
// (a gain of 1000% on it, rounded to 6 decimals) is still exact enough.
inline constexpr double kMaxMagnitude = 1e15;
// kMaxMagnitude as error messages write it.
inline constexpr char kMaxMagnitudeText[] = "1e15";

// The smallest price of an order. Outcome prices are rounded to 6 decimals
// (domain/outcomes.h), and the maximum gain divides by the entry price: a
// smaller one would round to 0 or overflow the gain.
inline constexpr double kMinOrderPrice = 0.000001;

// The largest take-profit or target-gain percentage: a target of 11 times
// the entry price.
inline constexpr double kMaxGainPercentage = 1000;

// True when `value` is finite and at most kMaxMagnitude in magnitude.
inline bool WithinMaxMagnitude(double value) {
  return std::isfinite(value) && std::fabs(value) <= kMaxMagnitude;
}

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_NUMBER_LIMITS_H_
