#include "storage/decoded_batch_cache.h"

#include <utility>

namespace mdc::storage {

bool BatchIdentity::operator==(const BatchIdentity& other) const {
  return symbol == other.symbol && trading_day == other.trading_day &&
         first_observed_at_us == other.first_observed_at_us &&
         compacted_at_us == other.compacted_at_us && min_seq == other.min_seq &&
         max_seq == other.max_seq && row_count == other.row_count &&
         table == other.table && parts == other.parts &&
         compressed == other.compressed;
}

DecodedBatchCache& DecodedBatchCache::Shared() {
  static auto* cache = new DecodedBatchCache(kDecodedBatchCacheBytes);
  return *cache;
}

DecodedBatch DecodedBatchCache::Find(const BatchIdentity& id) {
  absl::MutexLock lock(&mutex_);
  auto found = index_.find(id);
  if (found == index_.end()) return nullptr;
  order_.splice(order_.begin(), order_, found->second);
  return found->second->batch;
}

void DecodedBatchCache::Put(const BatchIdentity& id, DecodedBatch batch) {
  const int64_t size = SizeOf(id, *batch);
  if (size > budget_) return;
  absl::MutexLock lock(&mutex_);
  if (index_.contains(id)) return;
  order_.push_front(Entry{id, std::move(batch), size});
  index_.emplace(id, order_.begin());
  bytes_ += size;
  while (bytes_ > budget_ && !order_.empty()) {
    bytes_ -= order_.back().bytes;
    index_.erase(order_.back().id);
    order_.pop_back();
  }
}

int64_t DecodedBatchCache::bytes() const {
  absl::MutexLock lock(&mutex_);
  return bytes_;
}

int64_t DecodedBatchCache::SizeOf(const BatchIdentity& id,
                                  const DecodedQuotes& batch) {
  int64_t size = static_cast<int64_t>(
      sizeof(batch) + id.symbol.size() +
      batch.quotes.capacity() * sizeof(domain::StoredQuote) +
      batch.instants.capacity() * sizeof(int64_t) +
      batch.day_change_perc.capacity() * sizeof(double) +
      batch.compressed.capacity());
  for (const domain::StoredQuote& quote : batch.quotes) {
    // Short payloads live inside the string itself.
    if (quote.quote_data.capacity() > 15) {
      size += static_cast<int64_t>(quote.quote_data.capacity());
    }
  }
  return size;
}

}  // namespace mdc::storage
