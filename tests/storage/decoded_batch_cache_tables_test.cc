// The cache of decoded batches (storage/decoded_batch_cache.h): a batch is
// known by its table as well as its key and content stamps, so a NIFTY
// batch (no symbol) and a stock batch of the same day and instants never
// stand for each other; a NIFTY batch's day changes count in the budget.
#include <gtest/gtest.h>

#include <memory>

#include "storage/decoded_batch_cache.h"

namespace mdc::storage {
namespace {

DecodedBatch BatchOf(int quotes, bool nifty) {
  auto batch = std::make_shared<DecodedQuotes>();
  batch->quotes.resize(quotes);
  if (nifty) batch->day_change_perc.assign(quotes, 0.25);
  batch->ascending = true;
  return batch;
}

TEST(DecodedBatchCache, TellsTheTablesApart) {
  DecodedBatchCache cache(int64_t{1} << 20);
  BatchIdentity stock{"", absl::CivilDay(2026, 5, 4), 1, 2, 3, 4, 5};
  BatchIdentity nifty = stock;
  nifty.table = BatchTable::kNiftyQuotes;
  const DecodedBatch stock_batch = BatchOf(3, false);
  cache.Put(stock, stock_batch);
  EXPECT_EQ(cache.Find(nifty), nullptr);
  const DecodedBatch nifty_batch = BatchOf(2, true);
  cache.Put(nifty, nifty_batch);
  EXPECT_EQ(cache.Find(stock), stock_batch);
  EXPECT_EQ(cache.Find(nifty), nifty_batch);
}

TEST(DecodedBatchCache, CountsANiftyBatchsDayChanges) {
  DecodedBatchCache cache(int64_t{1} << 20);
  BatchIdentity stock{"", absl::CivilDay(2026, 5, 4), 1, 2, 3, 4, 5};
  cache.Put(stock, BatchOf(100, false));
  const int64_t stock_bytes = cache.bytes();
  BatchIdentity nifty = stock;
  nifty.table = BatchTable::kNiftyQuotes;
  cache.Put(nifty, BatchOf(100, true));
  EXPECT_GE(cache.bytes() - stock_bytes,
            stock_bytes + static_cast<int64_t>(100 * sizeof(double)));
}

}  // namespace
}  // namespace mdc::storage
