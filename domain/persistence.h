// Shortlist persistence (docs/api.md section 5.1): how many of a range's
// snapshots each symbol appeared in.
//
// Only non-empty snapshots count towards the total; a symbol counts at most
// once per snapshot; its percentage is count / total x 100 rounded to one
// decimal; its name is the one of its first appearance. Symbols are ordered
// by count descending, ties by first appearance (earlier snapshot, then
// higher rank within it).
//
// Thread-compatible.
#ifndef MDC_DOMAIN_PERSISTENCE_H_
#define MDC_DOMAIN_PERSISTENCE_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {

struct PersistentSymbol {
  std::string nse_symbol;
  std::string name;
  int appearance_count = 0;
  double percentage = 0;
};

struct Persistence {
  int total_snapshots = 0;
  std::vector<PersistentSymbol> symbols;
};

// Counts snapshots fed in ascending time order, one at a time, so a long
// range never has to sit in memory whole.
class PersistenceCounter {
 public:
  void Add(const v1::Shortlist& snapshot);
  Persistence Finish() const;

 private:
  int total_ = 0;
  // In order of first appearance.
  std::vector<PersistentSymbol> symbols_;
  absl::flat_hash_map<std::string, size_t> index_;
};

// Rounds to one decimal, halves away from zero (66.666... → 66.7).
double RoundToOneDecimal(double value);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_PERSISTENCE_H_
