#include "domain/field_path.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

TEST(FieldPathTest, WritesMembersWithDotsAndItemsWithBrackets) {
  const FieldPath data("data");
  EXPECT_EQ(data.str(), "data");
  const FieldPath quotes = data.Field("quotes");
  EXPECT_EQ(quotes.str(), "data.quotes");
  const FieldPath quote = quotes.Item(3);
  EXPECT_EQ(quote.str(), "data.quotes[3]");
  const FieldPath quote_data = quote.Field("quoteData");
  const FieldPath payload = quote_data.Field("payload");
  EXPECT_EQ(payload.Field("ohlc").str(),
            "data.quotes[3].quoteData.payload.ohlc");
  const FieldPath depth = payload.Field("depth");
  const FieldPath buy = depth.Field("buy");
  const FieldPath level = buy.Item(0);
  EXPECT_EQ(level.Field("price").str(),
            "data.quotes[3].quoteData.payload.depth.buy[0].price");
}

}  // namespace
}  // namespace mdc::domain
