#include "domain/persistence.h"

#include <algorithm>
#include <cmath>

#include "absl/container/flat_hash_set.h"

namespace mdc::domain {

void PersistenceCounter::Add(const v1::Shortlist& snapshot) {
  if (snapshot.entries().empty()) return;
  ++total_;
  absl::flat_hash_set<std::string> seen;
  for (const v1::ShortlistEntry& entry : snapshot.entries()) {
    if (!seen.insert(entry.nse_symbol()).second) continue;
    auto [it, inserted] =
        index_.try_emplace(entry.nse_symbol(), symbols_.size());
    if (inserted) {
      symbols_.push_back(
          PersistentSymbol{entry.nse_symbol(), entry.name(), 0, 0});
    }
    ++symbols_[it->second].appearance_count;
  }
}

Persistence PersistenceCounter::Finish() const {
  Persistence result;
  result.total_snapshots = total_;
  result.symbols = symbols_;
  // Stable: equal counts keep the order of first appearance.
  std::stable_sort(result.symbols.begin(), result.symbols.end(),
                   [](const PersistentSymbol& a, const PersistentSymbol& b) {
                     return a.appearance_count > b.appearance_count;
                   });
  for (PersistentSymbol& symbol : result.symbols) {
    symbol.percentage =
        RoundToOneDecimal(100.0 * symbol.appearance_count / total_);
  }
  return result;
}

double RoundToOneDecimal(double value) {
  return std::round(value * 10.0) / 10.0;
}

}  // namespace mdc::domain
