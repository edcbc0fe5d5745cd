#include "domain/instrument_series.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "domain/time.h"

namespace mdc::domain {

bool operator==(const SeriesSegment& a, const SeriesSegment& b) {
  return a.symbol == b.symbol && a.start == b.start && a.end == b.end;
}

std::vector<SeriesSegment> SegmentsOf(const SymbolHistory& history,
                                      absl::Time start, absl::Time end) {
  std::vector<SeriesSegment> segments;
  for (size_t i = 0; i < history.size(); ++i) {
    const absl::Time from = DayStart(history[i].valid_from);
    const absl::Time to = i + 1 < history.size()
                              ? DayStart(history[i + 1].valid_from)
                              : absl::InfiniteFuture();
    const absl::Time clipped_start = std::max(from, start);
    const absl::Time clipped_end = std::min(to, end);
    if (clipped_start >= clipped_end) continue;
    segments.push_back({history[i].symbol, clipped_start, clipped_end});
  }
  return segments;
}

std::vector<SeriesSegment> SingleSymbolSegment(const std::string& symbol,
                                               absl::Time start,
                                               absl::Time end) {
  if (start >= end) return {};
  return {{symbol, start, end}};
}

std::vector<std::string> SymbolsOnDay(
    const std::vector<std::string>& symbols,
    const std::vector<std::optional<SymbolHistory>>& histories,
    absl::CivilDay day) {
  std::vector<std::string> out;
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < symbols.size(); ++i) {
    std::optional<std::string> symbol = symbols[i];
    if (i < histories.size() && histories[i].has_value()) {
      symbol = SymbolOn(*histories[i], day);
    }
    if (symbol.has_value() && seen.insert(*symbol).second) {
      out.push_back(*symbol);
    }
  }
  return out;
}

}  // namespace mdc::domain
