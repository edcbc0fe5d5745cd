// Picking a read's quotes out of decoded compacted batches
// (domain/compacted_selection.h): the keyset order (instant, then symbol
// byte by byte), the bound, the end, the limit, priced quotes only, and a
// symbol's latest quote within bounds.
#include "domain/compacted_selection.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mdc::domain {
namespace {

StoredQuote Quote(int64_t at_us, bool priced = true) {
  StoredQuote quote;
  quote.observed_at_us = at_us;
  if (priced) quote.last_price = static_cast<double>(at_us);
  return quote;
}

std::vector<std::string> Keys(const std::vector<QuoteRef>& picked) {
  std::vector<std::string> keys;
  for (const QuoteRef& ref : picked) {
    keys.push_back(*ref.symbol + "@" +
                   std::to_string(ref.quote->observed_at_us));
  }
  return keys;
}

class CompactedSelectionTest : public ::testing::Test {
 protected:
  // "a" is after "B_" byte by byte ('a' 0x61 > 'B' 0x42), before it in a
  // dictionary; two batches of "B_" follow each other in time.
  const std::string lower_ = "a", upper_ = "B_";
  const std::vector<StoredQuote> lower_quotes_ = {Quote(10), Quote(20, false),
                                                  Quote(30)};
  const std::vector<StoredQuote> upper_first_ = {Quote(10), Quote(15)};
  const std::vector<StoredQuote> upper_second_ = {Quote(20), Quote(40)};
  const std::vector<int64_t> lower_at_ = InstantsOf(lower_quotes_),
                             upper_first_at_ = InstantsOf(upper_first_),
                             upper_second_at_ = InstantsOf(upper_second_);
  const std::vector<QuoteRun> runs_ = {
      {&lower_, &lower_quotes_, &lower_at_},
      {&upper_, &upper_second_, &upper_second_at_},
      {&upper_, &upper_first_, &upper_first_at_}};
};

TEST_F(CompactedSelectionTest, MergesInInstantThenByteOrder) {
  EXPECT_EQ(Keys(FirstQuotesAfter(runs_, 0, "", 1000, 100)),
            (std::vector<std::string>{"B_@10", "a@10", "B_@15", "B_@20", "a@20",
                                      "a@30", "B_@40"}));
}

TEST_F(CompactedSelectionTest, StartsAfterTheBoundAndStopsAtEndAndLimit) {
  // At the bound's instant, only symbols after the bound's symbol.
  EXPECT_EQ(Keys(FirstQuotesAfter(runs_, 10, "B_", 1000, 3)),
            (std::vector<std::string>{"a@10", "B_@15", "B_@20"}));
  EXPECT_EQ(Keys(FirstQuotesAfter(runs_, 10, "a", 1000, 2)),
            (std::vector<std::string>{"B_@15", "B_@20"}));
  EXPECT_EQ(Keys(FirstQuotesAfter(runs_, 20, "B_", 40, 100)),
            (std::vector<std::string>{"a@20", "a@30"}));
  EXPECT_TRUE(FirstQuotesAfter(runs_, 40, "B_", 1000, 100).empty());
  EXPECT_TRUE(FirstQuotesAfter(runs_, 0, "", 1000, 0).empty());
}

TEST_F(CompactedSelectionTest, PricedOnlySkipsQuotesWithoutAPrice) {
  EXPECT_EQ(Keys(FirstQuotesAfter(runs_, 15, "B_", 1000, 3,
                                  /*priced_only=*/true)),
            (std::vector<std::string>{"B_@20", "a@30", "B_@40"}));
}

TEST_F(CompactedSelectionTest, LatestWithinBounds) {
  const QuoteRun run{&lower_, &lower_quotes_, &lower_at_};
  EXPECT_EQ(LatestWithin(run, 0, 25)->observed_at_us, 20);
  EXPECT_EQ(LatestWithin(run, 0, 30)->observed_at_us, 30);
  EXPECT_EQ(LatestWithin(run, 0, 1000)->observed_at_us, 30);
  EXPECT_EQ(LatestWithin(run, 10, 10)->observed_at_us, 10);
  EXPECT_EQ(LatestWithin(run, 21, 29), nullptr);  // none in between
  EXPECT_EQ(LatestWithin(run, 0, 9), nullptr);    // before the first
}

TEST(CompactedSelection, AscendingMeansStrictlyIncreasingInstants) {
  EXPECT_TRUE(IsAscending({}));
  EXPECT_TRUE(IsAscending({Quote(1), Quote(2)}));
  EXPECT_FALSE(IsAscending({Quote(2), Quote(1)}));
  EXPECT_FALSE(IsAscending({Quote(1), Quote(1)}));
}

}  // namespace
}  // namespace mdc::domain
