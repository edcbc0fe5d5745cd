#include "domain/daily_analytics.h"

#include <algorithm>
#include <cmath>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"

namespace mdc::domain {

absl::StatusOr<double> MinPercentageOrDefault(std::optional<double> given) {
  if (!given.has_value()) return kDefaultMinPercentage;
  if (!std::isfinite(*given) || *given < 0 || *given > 100) {
    return absl::InvalidArgumentError("must be a number from 0 to 100");
  }
  return *given;
}

DailyPersistence PersistentCompanies(
    const std::vector<v1::Shortlist>& snapshots, double min_percentage) {
  DailyPersistence result;
  result.total_snapshots = static_cast<int>(snapshots.size());
  if (snapshots.empty()) return result;

  std::vector<PersistentSymbol> symbols;
  absl::flat_hash_map<std::string, size_t> index;
  for (const auto& snapshot : snapshots) {
    absl::flat_hash_set<std::string> seen;
    for (const auto& entry : snapshot.entries()) {
      if (!seen.insert(entry.nse_symbol()).second) continue;
      auto [it, inserted] =
          index.try_emplace(entry.nse_symbol(), symbols.size());
      if (inserted) {
        symbols.push_back(PersistentSymbol{entry.nse_symbol(), entry.name()});
      }
      ++symbols[it->second].count;
    }
  }

  // min x total / 100 is exact for whole percentages (70 x 10 / 100 = 7,
  // where 0.7 x 10 is not); the epsilon absorbs what remains of binary
  // fractions.
  const double total = result.total_snapshots;
  const int needed =
      static_cast<int>(std::ceil(min_percentage * total / 100.0 - 1e-9));
  for (auto& symbol : symbols) {
    if (symbol.count < needed) continue;
    symbol.percentage = std::round(symbol.count / total * 100.0 * 10.0) / 10.0;
    result.companies.push_back(std::move(symbol));
  }
  std::sort(result.companies.begin(), result.companies.end(),
            [](const PersistentSymbol& a, const PersistentSymbol& b) {
              if (a.count != b.count) return a.count > b.count;
              return a.nse_symbol < b.nse_symbol;
            });
  return result;
}

std::vector<std::string> UniqueSymbols(
    const std::vector<v1::Shortlist>& snapshots) {
  absl::btree_set<std::string> symbols;
  for (const auto& snapshot : snapshots) {
    for (const auto& entry : snapshot.entries()) {
      symbols.insert(entry.nse_symbol());
    }
  }
  return std::vector<std::string>(symbols.begin(), symbols.end());
}

}  // namespace mdc::domain
