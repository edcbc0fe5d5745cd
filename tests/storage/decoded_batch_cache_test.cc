// The cache of decoded compacted batches (storage/decoded_batch_cache.h):
// found by the batch's whole identity, least recently used out first, never
// beyond its byte budget.
#include "storage/decoded_batch_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace mdc::storage {
namespace {

BatchIdentity Id(const std::string& symbol, int64_t compacted_at_us = 1) {
  return BatchIdentity{
      symbol, absl::CivilDay(2026, 5, 4), 100, compacted_at_us, 1, 10, 10};
}

// A batch of `quotes` quotes with payloads of `payload` bytes.
DecodedBatch Batch(int quotes, int payload) {
  auto batch = std::make_shared<DecodedQuotes>();
  for (int i = 0; i < quotes; ++i) {
    domain::StoredQuote quote;
    quote.observed_at_us = i;
    quote.quote_data.assign(payload, 'x');
    batch->quotes.push_back(quote);
    batch->instants.push_back(i);
  }
  batch->ascending = true;
  return batch;
}

TEST(DecodedBatchCache, FindsABatchByItsWholeIdentity) {
  DecodedBatchCache cache(1 << 20);
  const DecodedBatch batch = Batch(10, 100);
  cache.Put(Id("AAA"), batch);
  EXPECT_EQ(cache.Find(Id("AAA")), batch);
  EXPECT_EQ(cache.Find(Id("BBB")), nullptr);
  // Compacted again: another batch, whatever its key.
  EXPECT_EQ(cache.Find(Id("AAA", /*compacted_at_us=*/2)), nullptr);
}

TEST(DecodedBatchCache, StaysWithinItsBudgetDroppingTheLeastRecentlyUsed) {
  const int64_t one = DecodedBatchCache::SizeOf(Id("A"), *Batch(10, 1000));
  DecodedBatchCache cache(3 * one + 200);
  cache.Put(Id("A"), Batch(10, 1000));
  cache.Put(Id("B"), Batch(10, 1000));
  cache.Put(Id("C"), Batch(10, 1000));
  ASSERT_NE(cache.Find(Id("A")), nullptr);  // A is now the most recent
  cache.Put(Id("D"), Batch(10, 1000));
  EXPECT_EQ(cache.Find(Id("B")), nullptr);  // the least recently used
  EXPECT_NE(cache.Find(Id("A")), nullptr);
  EXPECT_NE(cache.Find(Id("C")), nullptr);
  EXPECT_NE(cache.Find(Id("D")), nullptr);
  EXPECT_LE(cache.bytes(), 3 * one + 200);
  // A batch larger than the whole budget is not kept.
  cache.Put(Id("E"), Batch(100, 1000));
  EXPECT_EQ(cache.Find(Id("E")), nullptr);
  EXPECT_NE(cache.Find(Id("D")), nullptr);
}

}  // namespace
}  // namespace mdc::storage
