#include "storage/day_page_read_ahead.h"

#include <utility>

namespace mdc::storage {

bool DayPageKey::operator==(const DayPageKey& other) const {
  return day == other.day && symbols == other.symbols &&
         end_us == other.end_us && limit == other.limit &&
         after_us == other.after_us && after_symbol == other.after_symbol;
}

DayPageReadAhead& DayPageReadAhead::Shared() {
  static auto* shared = new DayPageReadAhead();
  return *shared;
}

std::optional<DayPageQuotes> DayPageReadAhead::Take(const DayPageKey& key,
                                                    absl::Time now) {
  absl::MutexLock lock(&mu_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (!(it->key == key)) continue;
    DayPageQuotes found = std::move(it->quotes);
    entries_.erase(it);
    if (now - found.kept_at > kDayPageReadAheadFor) return std::nullopt;
    return found;
  }
  return std::nullopt;
}

void DayPageReadAhead::Keep(DayPageKey key, DayPageQuotes ahead) {
  if (ahead.next == 0) return;
  const bool served = ahead.next >= ahead.quotes.size();
  if (served && (ahead.to_the_end || ahead.listing == nullptr)) return;
  const domain::QuoteRef& last = ahead.quotes[ahead.next - 1];
  key.after_us = last.quote->observed_at_us;
  key.after_symbol = *last.symbol;
  if (served) {
    // The listing and the batches are of use now (the next load takes the
    // ones still under way from them), not the quotes.
    ahead.quotes.clear();
    ahead.next = 0;
  }
  absl::MutexLock lock(&mu_);
  entries_.push_front(Entry{std::move(key), std::move(ahead)});
  while (entries_.size() > static_cast<size_t>(kDayPageReadAheadEntries)) {
    entries_.pop_back();
  }
}

}  // namespace mdc::storage
