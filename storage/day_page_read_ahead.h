// Read-ahead of the pages of a compacted day (replay and exports: a day in
// the order (observed_at, nse_symbol COLLATE "C") after a keyset bound).
//
// A page of a compacted day answered from the decoded batches costs a
// listing of the batches it meets: one per symbol of the day, whatever the
// page's size, so for a day of a thousand symbols the listing costs as much
// as the page itself. When a page is answered from the batches alone (the
// row store holds nothing within its bounds), the reader therefore takes
// the next kDayPageReadAhead pages' quotes from the same merge at once, and
// keeps them here, keyed by what the next page will ask for (the day, the
// symbols, the end, the limit and the bound after the page just answered).
// The next page is then served after one small check instead of the
// listing: that the row store still holds no quote of the day within the
// page's bounds, and that the day's batches are still those the quotes were
// read from (their latest compacted_at: days are deleted whole, and a
// compaction stamps what it writes with its own time, so a delete, a purge
// or a later compaction of the day changes it). Otherwise the page is
// read the usual way. Entries not asked for within kDayPageReadAheadFor are
// dropped, so abandoned exports do not hold their batches.
//
// Thread-safe; a few entries (one per export or replay reading a compacted
// day at once), the least recently kept dropped first.
#ifndef MDC_STORAGE_DAY_PAGE_READ_AHEAD_H_
#define MDC_STORAGE_DAY_PAGE_READ_AHEAD_H_

#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/compacted_selection.h"
#include "domain/stream_cursors.h"
#include "storage/compacted_quotes.h"

namespace mdc::storage {

// Pages read at once (the one asked for and the ones after it).
inline constexpr int kDayPageReadAhead = 8;
// How long read-ahead pages wait for the next page to ask for them.
inline constexpr absl::Duration kDayPageReadAheadFor = absl::Seconds(10);
// Entries kept at once.
inline constexpr int kDayPageReadAheadEntries = 4;

// What a page asks for.
struct DayPageKey {
  absl::CivilDay day;
  std::vector<std::string> symbols;  // all when empty
  int64_t end_us = 0;
  int limit = 0;
  int64_t after_us = 0;
  std::string after_symbol;

  bool operator==(const DayPageKey& other) const;
};

// Quotes picked ahead from a merge of `batches` (which they point into).
struct DayPageQuotes {
  std::shared_ptr<const CompactedBatches> batches;
  std::vector<domain::QuoteRef> quotes;
  size_t next = 0;          // the first not served yet
  bool to_the_end = false;  // no quote of the range after the last one
  absl::Time kept_at;
  // The latest compacted_at of the day's batches when they were listed, in
  // microseconds.
  int64_t day_compacted_us = 0;
  // The listing of the day's batches the quotes came from, when it can serve
  // the pages after these (it was made under day_compacted_us): the next
  // read from the batches loads from it instead of listing again. Null
  // otherwise.
  std::shared_ptr<const BatchListing> listing;
};

class DayPageReadAhead {
 public:
  static DayPageReadAhead& Shared();

  // The quotes of the page `key` asks for, when read ahead and still
  // fresh at `now` (then taken out: the remainder is kept again under the
  // next page's key by Keep).
  std::optional<DayPageQuotes> Take(const DayPageKey& key, absl::Time now);

  // Keeps `ahead` (its quotes from `next` on) for the page after `key`'s,
  // which starts after the quote before `next`. Once every quote is served
  // only its listing and its batches are kept (the next load from the
  // listing takes the batches still under way from them), if it has a
  // listing and the day goes on.
  void Keep(DayPageKey key, DayPageQuotes ahead);

 private:
  struct Entry {
    DayPageKey key;
    DayPageQuotes quotes;
  };
  absl::Mutex mu_;
  std::list<Entry> entries_ ABSL_GUARDED_BY(mu_);  // most recent first
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_DAY_PAGE_READ_AHEAD_H_
