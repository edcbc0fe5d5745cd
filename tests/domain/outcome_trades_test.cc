// The trades outcomes are computed for: a dashboard shortlist entry's (its
// entry price, target and stop from percentages) and a stored order's.
#include <gtest/gtest.h>

#include <optional>

#include "domain/outcomes.h"
#include "domain/time.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {
namespace {

v1::ShortlistEntry Entry(std::optional<double> price) {
  v1::ShortlistEntry entry;
  entry.set_nse_symbol("INFY");
  if (price.has_value()) entry.set_price(*price);
  return entry;
}

v1::StockQuote QuoteWithLastPrice(std::optional<double> last_price) {
  v1::StockQuote quote;
  quote.set_nse_symbol("INFY");
  if (last_price.has_value()) {
    quote.mutable_quote_data()->mutable_payload()->set_last_price(*last_price);
  }
  return quote;
}

TEST(ShortlistEntryPrice, TheEntrysOwnPriceWins) {
  const v1::StockQuote quote = QuoteWithLastPrice(1490);
  EXPECT_EQ(ShortlistEntryPrice(Entry(1500.5), &quote), 1500.5);
  EXPECT_EQ(ShortlistEntryPrice(Entry(1500.5), nullptr), 1500.5);
}

TEST(ShortlistEntryPrice, WithoutAPositivePriceTheQuotesLastPrice) {
  const v1::StockQuote quote = QuoteWithLastPrice(1490.25);
  EXPECT_EQ(ShortlistEntryPrice(Entry(0), &quote), 1490.25);
  EXPECT_EQ(ShortlistEntryPrice(Entry(std::nullopt), &quote), 1490.25);
}

TEST(ShortlistEntryPrice, WithNeitherThereIsNothingToTrade) {
  const v1::StockQuote unpriced = QuoteWithLastPrice(std::nullopt);
  EXPECT_EQ(ShortlistEntryPrice(Entry(0), &unpriced), std::nullopt);
  EXPECT_EQ(ShortlistEntryPrice(Entry(std::nullopt), nullptr), std::nullopt);
}

TEST(ShortlistTrade, LevelsArePercentagesAroundTheEntry) {
  const absl::Time at = absl::FromUnixSeconds(1740976200);
  const OutcomeRequest trade = ShortlistTrade(at, 200, 5, 2.5);
  EXPECT_EQ(trade.entry_time, at);
  EXPECT_EQ(trade.entry_price, 200);
  EXPECT_EQ(trade.target_price, 210);
  EXPECT_EQ(trade.stop_loss_price, 195);
  EXPECT_FALSE(trade.report_max_gain);
}

OrderLevels Order() {
  return OrderLevels{absl::FromUnixSeconds(1740976200), 100, 97, 108};
}

TEST(OrderTrade, KeepsTheOrdersOwnLevels) {
  const OutcomeRequest trade = OrderTrade(Order(), std::nullopt);
  EXPECT_EQ(trade.entry_time, absl::FromUnixSeconds(1740976200));
  EXPECT_EQ(trade.entry_price, 100);
  EXPECT_EQ(trade.target_price, 108);
  EXPECT_EQ(trade.stop_loss_price, 97);
  EXPECT_TRUE(trade.report_max_gain);
}

TEST(OrderTrade, ATargetGainReplacesOnlyTheTakeProfit) {
  const OutcomeRequest trade = OrderTrade(Order(), 3.5);
  EXPECT_EQ(trade.target_price, 103.5);
  EXPECT_EQ(trade.stop_loss_price, 97);
  EXPECT_EQ(trade.entry_price, 100);
  EXPECT_TRUE(trade.report_max_gain);
}

}  // namespace
}  // namespace mdc::domain
