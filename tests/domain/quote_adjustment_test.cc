#include "domain/quote_adjustment.h"

#include <gtest/gtest.h>

#include "domain/proto_time.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

TEST(QuoteAdjustment, ScalesPricesAndQuantitiesOnly) {
  v1::QuotePayload p;
  p.set_last_price(200);
  p.set_day_change(10);
  p.set_day_change_perc(5);
  p.set_volume(1000);
  p.set_market_cap(1e9);
  p.set_week_52_high(300);
  p.mutable_ohlc()->set_open(190);
  auto* bid = p.mutable_depth()->add_buy();
  bid->set_price(199);
  bid->set_quantity(50);
  AdjustPayload(0.5, 2, &p);
  EXPECT_EQ(p.last_price(), 100);
  EXPECT_EQ(p.day_change(), 5);
  EXPECT_EQ(p.day_change_perc(), 5);
  EXPECT_EQ(p.volume(), 2000);
  EXPECT_EQ(p.market_cap(), 1e9);
  EXPECT_EQ(p.week_52_high(), 150);
  EXPECT_EQ(p.ohlc().open(), 95);
  EXPECT_FALSE(p.ohlc().has_close());
  EXPECT_EQ(p.depth().buy(0).price(), 99.5);
  EXPECT_EQ(p.depth().buy(0).quantity(), 100);
  EXPECT_FALSE(p.has_average_price());
}

TEST(QuoteAdjustment, UsesTheFactorsOfTheQuotesTradingDay) {
  CorporateAction bonus;
  bonus.kind = ActionKind::kBonus;
  bonus.ex_date = absl::CivilDay(2033, 8, 8);
  bonus.ratio_a = 1;
  bonus.ratio_b = 1;
  auto factors = AdjustmentFactors::For(
      Adjustment::kSplit, {bonus}, absl::CivilDay(2033, 9, 1),
      [](absl::CivilDay) -> absl::StatusOr<std::optional<double>> {
        return std::nullopt;
      });
  ASSERT_TRUE(factors.ok());
  v1::StockQuote before, after;
  SetTimestamp(SessionOpen(absl::CivilDay(2033, 8, 5)),
               before.mutable_timestamp());
  SetTimestamp(SessionOpen(absl::CivilDay(2033, 8, 8)),
               after.mutable_timestamp());
  before.mutable_quote_data()->mutable_payload()->set_last_price(400);
  after.mutable_quote_data()->mutable_payload()->set_last_price(200);
  AdjustQuote(*factors, &before);
  AdjustQuote(*factors, &after);
  EXPECT_EQ(before.quote_data().payload().last_price(), 200);
  EXPECT_EQ(after.quote_data().payload().last_price(), 200);
}

}  // namespace
}  // namespace mdc::domain
