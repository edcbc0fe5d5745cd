#include "domain/compacted_selection.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace mdc::domain {
namespace {

// A run's next candidate in a k-way merge, its order key at hand (the
// heap compares keys, not quotes scattered in memory).
struct Cursor {
  int64_t at_us;
  // The symbol's place in bytewise order among the runs' symbols: at the
  // instant every symbol of a day of the market shares, the heap compares
  // two integers, not two strings.
  uint32_t symbol_rank;
  const QuoteRun* run;
  size_t next;
};

// The runs' distinct symbols in bytewise order (COLLATE "C").
std::vector<const std::string*> SymbolsInOrder(
    const std::vector<QuoteRun>& runs) {
  std::vector<const std::string*> symbols;
  symbols.reserve(runs.size());
  for (const QuoteRun& run : runs) symbols.push_back(run.symbol);
  auto before = [](const std::string* a, const std::string* b) {
    return *a < *b;
  };
  std::sort(symbols.begin(), symbols.end(), before);
  symbols.erase(std::unique(symbols.begin(), symbols.end(),
                            [](const std::string* a, const std::string* b) {
                              return *a == *b;
                            }),
                symbols.end());
  return symbols;
}

}  // namespace

std::vector<int64_t> InstantsOf(const std::vector<StoredQuote>& quotes) {
  std::vector<int64_t> instants;
  instants.reserve(quotes.size());
  for (const StoredQuote& quote : quotes) {
    instants.push_back(quote.observed_at_us);
  }
  return instants;
}

bool IsAscending(const std::vector<StoredQuote>& quotes) {
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
    if (a.at_us != b.at_us) return a.at_us > b.at_us;
    return a.symbol_rank > b.symbol_rank;
  };
  const std::vector<const std::string*> symbols = SymbolsInOrder(runs);
  auto rank_of = [&symbols](const std::string& symbol) {
    return static_cast<uint32_t>(
        std::lower_bound(symbols.begin(), symbols.end(), &symbol,
                         [](const std::string* a, const std::string* b) {
                           return *a < *b;
                         }) -
        symbols.begin());
  };
  std::vector<Cursor> cursors;
  cursors.reserve(runs.size());
  // Moves to a run's next quote that can be read (priced when asked) and
  // keeps its instant; false when the run has none left before end_us.
  auto settle = [&](Cursor& cursor) {
    const std::vector<int64_t>& instants = *cursor.run->instants;
    if (priced_only) {
      const std::vector<StoredQuote>& quotes = *cursor.run->quotes;
      while (cursor.next < quotes.size() &&
             !quotes[cursor.next].last_price.has_value()) {
        ++cursor.next;
      }
    }
    if (cursor.next >= instants.size()) return false;
    cursor.at_us = instants[cursor.next];
    return cursor.at_us < end_us;
  };
  for (const QuoteRun& run : runs) {
    const std::vector<int64_t>& instants = *run.instants;
    Cursor cursor{
        0, rank_of(*run.symbol), &run,
        static_cast<size_t>(
            std::lower_bound(instants.begin(), instants.end(), after_us) -
            instants.begin())};
    // At the bound's instant only symbols after the bound's come after it.
    if (cursor.next < instants.size() && instants[cursor.next] == after_us &&
        *run.symbol <= after_symbol) {
      ++cursor.next;
    }
    if (settle(cursor)) cursors.push_back(cursor);
  }
  std::priority_queue<Cursor, std::vector<Cursor>, decltype(later)> heap(
      later, std::move(cursors));
  std::vector<QuoteRef> picked;
  picked.reserve(std::min<size_t>(static_cast<size_t>(limit), 1 << 16));
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
  const std::vector<int64_t>& instants = *run.instants;
  // The first quote after at_us; the one before it is the latest <= at_us.
  const size_t after = static_cast<size_t>(
      std::upper_bound(instants.begin(), instants.end(), at_us) -
      instants.begin());
  if (after == 0 || instants[after - 1] < not_before_us) return nullptr;
  return &(*run.quotes)[after - 1];
}

}  // namespace mdc::domain
