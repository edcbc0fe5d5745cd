// Coverage of a trading day (the dashboard's GetCoverage): which minutes of
// the session hold data, and the tallies of who wrote market records when.
#ifndef MDC_DOMAIN_COVERAGE_H_
#define MDC_DOMAIN_COVERAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/stream_cursors.h"

namespace mdc::domain {

// Whole minutes of the regular session of `day` (09:15-15:30 IST: 375).
// Minute i is [open + i min, open + (i + 1) min).
int SessionMinutes(absl::CivilDay day);

// Consecutive session minutes holding data, `first` to `last` included.
struct MinuteRange {
  int first = 0;
  int last = 0;
  bool operator==(const MinuteRange& other) const {
    return first == other.first && last == other.last;
  }
};

// The runs of '1' in `bits`, a bit string whose character i is '1' when
// minute i holds data (what the coverage statement returns), ascending.
// Characters other than '1' count as minutes without data.
std::vector<MinuteRange> MinuteRanges(absl::string_view bits);

// How many minutes the ranges cover.
int CoveredMinutes(const std::vector<MinuteRange>& ranges);

// What one collector wrote of one kind of record for one trading day, as a
// server tallies its committed writes before merging them into the database.
struct WriteTally {
  int64_t developer_id = 0;
  std::string username;  // for the freshness metric's label
  RecordKind kind = RecordKind::kQuote;
  absl::CivilDay day;        // the trading day of the records
  absl::Time last_written;   // when the latest write committed
  absl::Time last_observed;  // the latest instant among the records
  int64_t records = 0;       // records written, each write counted
};

// Adds `more` (the same developer, kind and day) to `into`: the later
// times, the records summed. Merging is associative and commutative, so
// servers may merge their tallies in any order.
void MergeTally(WriteTally& into, const WriteTally& more);

// "quotes", "nifty" or "shortlists": the kind's name in the API and the
// database (the same names as ReplayDay's `kinds`).
absl::string_view RecordKindName(RecordKind kind);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_COVERAGE_H_
