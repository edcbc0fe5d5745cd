#include "domain/compacted_selection.h"

#include <algorithm>
#include <queue>

namespace mdc::domain {
namespace {

bool Earlier(const StoredQuote& quote, int64_t at_us) {
  return quote.observed_at_us < at_us;
}

// A run's next candidate in a k-way merge.
struct Cursor {
  const QuoteRun* run;
  size_t next;
};

}  // namespace

bool IsAscending(const QuoteRun& run) {
  const std::vector<StoredQuote>& quotes = *run.quotes;
  for (size_t i = 1; i < quotes.size(); ++i) {
    if (quotes[i - 1].observed_at_us >= quotes[i].observed_at_us) return false;
  }
  return true;
}

std::vector<QuoteRef> FirstQuotesAfter(const std::vector<QuoteRun>& runs,
                                       int64_t after_us,
                                       const std::string& after_symbol,
                                       int64_t end_us, int limit,
                                       bool priced_only) {
  // Later in the merge's order: the heap's top is the earliest candidate.
  auto later = [](const Cursor& a, const Cursor& b) {
    const StoredQuote& qa = (*a.run->quotes)[a.next];
    const StoredQuote& qb = (*b.run->quotes)[b.next];
    if (qa.observed_at_us != qb.observed_at_us) {
      return qa.observed_at_us > qb.observed_at_us;
    }
    return *a.run->symbol > *b.run->symbol;
  };
  std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heap(later);
  // Skips to a run's next quote that can be read: priced when asked, within
  // end_us; false when the run has none left.
  auto settle = [&](Cursor& cursor) {
    const std::vector<StoredQuote>& quotes = *cursor.run->quotes;
    while (cursor.next < quotes.size() && priced_only &&
           !quotes[cursor.next].last_price.has_value()) {
      ++cursor.next;
    }
    return cursor.next < quotes.size() &&
           quotes[cursor.next].observed_at_us < end_us;
  };
  for (const QuoteRun& run : runs) {
    const std::vector<StoredQuote>& quotes = *run.quotes;
    Cursor cursor{
        &run, static_cast<size_t>(std::lower_bound(quotes.begin(), quotes.end(),
                                                   after_us, Earlier) -
                                  quotes.begin())};
    // At the bound's instant only symbols after the bound's come after it.
    if (cursor.next < quotes.size() &&
        quotes[cursor.next].observed_at_us == after_us &&
        *run.symbol <= after_symbol) {
      ++cursor.next;
    }
    if (settle(cursor)) heap.push(cursor);
  }
  std::vector<QuoteRef> picked;
  while (static_cast<int>(picked.size()) < limit && !heap.empty()) {
    Cursor cursor = heap.top();
    heap.pop();
    picked.push_back({cursor.run->symbol, &(*cursor.run->quotes)[cursor.next]});
    ++cursor.next;
    if (settle(cursor)) heap.push(cursor);
  }
  return picked;
}

const StoredQuote* LatestWithin(const QuoteRun& run, int64_t not_before_us,
                                int64_t at_us) {
  const std::vector<StoredQuote>& quotes = *run.quotes;
  // The first quote after at_us; the one before it is the latest <= at_us.
  auto after = std::upper_bound(quotes.begin(), quotes.end(), at_us,
                                [](int64_t at, const StoredQuote& quote) {
                                  return at < quote.observed_at_us;
                                });
  if (after == quotes.begin()) return nullptr;
  const StoredQuote& latest = *(after - 1);
  return latest.observed_at_us >= not_before_us ? &latest : nullptr;
}

}  // namespace mdc::domain
