// One instrument's history across its renames, as time segments: each
// symbol of the security master read over the days it named the instrument
// (its valid-from, inclusive, to the next symbol's, exclusive), so a read
// by the old or the new symbol sees one series with no overlap, each record
// under the symbol it was stored with (docs/api.md section 13.5).
#ifndef MDC_DOMAIN_INSTRUMENT_SERIES_H_
#define MDC_DOMAIN_INSTRUMENT_SERIES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/security_master.h"

namespace mdc::domain {

// The records of `symbol` in [start, end).
struct SeriesSegment {
  std::string symbol;
  absl::Time start;
  absl::Time end;
};

bool operator==(const SeriesSegment& a, const SeriesSegment& b);

// The segments of `history` (ascending by valid_from) clipped to
// [start, end), in time order; empty ones are left out. A period runs from
// the start of its valid-from trading day to the start of the next one's.
std::vector<SeriesSegment> SegmentsOf(const SymbolHistory& history,
                                      absl::Time start, absl::Time end);

// The one segment of a symbol the security master does not know: every
// record of it in [start, end), as reads did before the master existed.
std::vector<SeriesSegment> SingleSymbolSegment(const std::string& symbol,
                                               absl::Time start,
                                               absl::Time end);

// The symbols `symbols` name on `day`: each symbol with a history in
// `histories` (same order, nullopt when the master does not know it) is
// replaced by the instrument's symbol of that day (left out before the
// instrument's first period); the others stay. Without duplicates, in
// order.
std::vector<std::string> SymbolsOnDay(
    const std::vector<std::string>& symbols,
    const std::vector<std::optional<SymbolHistory>>& histories,
    absl::CivilDay day);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_INSTRUMENT_SERIES_H_
