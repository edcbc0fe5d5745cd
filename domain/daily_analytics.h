// Daily shortlist analytics of the dashboard (docs/api.md section 5.2 and
// Daily Unique Companies): which symbols stayed in a trading day's shortlist
// snapshots, and which appeared at all.
//
// Pure functions over snapshots the caller has read. Thread-safe.
#ifndef MDC_DOMAIN_DAILY_ANALYTICS_H_
#define MDC_DOMAIN_DAILY_ANALYTICS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

inline constexpr double kDefaultMinPercentage = 80;

// `min_percentage` as given (absent → 80); INVALID_ARGUMENT unless it is a
// number in [0, 100] (the caller names the parameter).
absl::StatusOr<double> MinPercentageOrDefault(std::optional<double> given);

struct PersistentSymbol {
  std::string nse_symbol;
  std::string name;       // from the symbol's first appearance
  int count = 0;          // snapshots containing it (once per snapshot)
  double percentage = 0;  // count / total x 100, 1 decimal
};

struct DailyPersistence {
  // Every snapshot counts, empty ones included.
  int total_snapshots = 0;
  // Symbols with count >= ceil(min_percentage / 100 x total), by count
  // descending, then symbol ascending.
  std::vector<PersistentSymbol> companies;
};

// `snapshots` are one trading day's snapshots of one type and scope in
// ascending time order.
DailyPersistence PersistentCompanies(
    const std::vector<v1::Shortlist>& snapshots, double min_percentage);

// The distinct symbols of `snapshots` (any types, scopes and instants),
// sorted.
std::vector<std::string> UniqueSymbols(
    const std::vector<v1::Shortlist>& snapshots);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_DAILY_ANALYTICS_H_
