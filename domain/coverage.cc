#include "domain/coverage.h"

#include <algorithm>

#include "domain/time.h"

namespace mdc::domain {

int SessionMinutes(absl::CivilDay day) {
  return static_cast<int>(
      absl::ToInt64Minutes(SessionClose(day) - SessionOpen(day)));
}

std::vector<MinuteRange> MinuteRanges(absl::string_view bits) {
  std::vector<MinuteRange> ranges;
  const int n = static_cast<int>(bits.size());
  for (int i = 0; i < n; ++i) {
    if (bits[i] != '1') continue;
    int last = i;
    while (last + 1 < n && bits[last + 1] == '1') ++last;
    ranges.push_back(MinuteRange{i, last});
    i = last;
  }
  return ranges;
}

int CoveredMinutes(const std::vector<MinuteRange>& ranges) {
  int minutes = 0;
  for (const MinuteRange& range : ranges)
    minutes += range.last - range.first + 1;
  return minutes;
}

void MergeTally(WriteTally& into, const WriteTally& more) {
  into.last_written = std::max(into.last_written, more.last_written);
  into.last_observed = std::max(into.last_observed, more.last_observed);
  into.records += more.records;
  if (!more.username.empty()) into.username = more.username;
}

absl::string_view RecordKindName(RecordKind kind) {
  switch (kind) {
    case RecordKind::kQuote:
      return "quotes";
    case RecordKind::kNifty:
      return "nifty";
    case RecordKind::kShortlist:
      return "shortlists";
  }
  return "quotes";
}

}  // namespace mdc::domain
