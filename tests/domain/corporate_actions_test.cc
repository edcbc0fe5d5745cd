#include "domain/corporate_actions.h"

#include <gtest/gtest.h>

#include "domain/adjustment.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

CorporateAction Only(absl::string_view purpose,
                     std::optional<double> face_value = 10) {
  auto actions = ParsePurpose(purpose, face_value);
  EXPECT_TRUE(actions.ok()) << purpose << ": " << actions.status();
  EXPECT_EQ(actions.ok() ? actions->size() : 0u, 1u) << purpose;
  return actions.ok() && !actions->empty() ? actions->front()
                                           : CorporateAction();
}

TEST(Purpose, BonusSplitConsolidationDividendRights) {
  CorporateAction bonus = Only("Bonus 1:1");
  EXPECT_EQ(bonus.kind, ActionKind::kBonus);
  EXPECT_EQ(bonus.ratio_a, 1);
  EXPECT_EQ(bonus.ratio_b, 1);
  CorporateAction bonus32 = Only("BONUS 3 : 2");
  EXPECT_EQ(bonus32.ratio_a, 3);
  EXPECT_EQ(bonus32.ratio_b, 2);

  CorporateAction split = Only(
      "Face Value Split (Sub-Division) - From Rs 10/- Per Share To Rs 2/- "
      "Per Share");
  EXPECT_EQ(split.kind, ActionKind::kSplit);
  EXPECT_EQ(split.ratio_a, 10);
  EXPECT_EQ(split.ratio_b, 2);
  EXPECT_EQ(split.description,
            "Face Value Split (Sub-Division) - From Rs 10  Per Share To Rs 2  "
            "Per Share");

  CorporateAction consolidation = Only(
      "Consolidation Of Shares From Re 1/- Per Share To Rs 10/- Per Share");
  EXPECT_EQ(consolidation.kind, ActionKind::kConsolidation);
  EXPECT_EQ(consolidation.ratio_a, 1);
  EXPECT_EQ(consolidation.ratio_b, 10);

  CorporateAction dividend = Only("Interim Dividend - Rs 2.50 Per Share");
  EXPECT_EQ(dividend.kind, ActionKind::kDividend);
  EXPECT_EQ(dividend.amount, 2.5);
  EXPECT_EQ(Only("DIVIDEND RS.3.50 PER SHARE").amount, 3.5);
  EXPECT_EQ(Only("Dividend - Re 0.50 Per Share").amount, 0.5);
  EXPECT_EQ(Only("Dividend - 50%", 2).amount, 1);

  CorporateAction rights = Only("Rights 1:5 @ Premium Rs 90/-", 10);
  EXPECT_EQ(rights.kind, ActionKind::kRights);
  EXPECT_EQ(rights.ratio_a, 1);
  EXPECT_EQ(rights.ratio_b, 5);
  EXPECT_EQ(rights.amount, 100);
}

TEST(Purpose, SeveralPartsAndPartsWithoutPriceEffect) {
  auto actions = ParsePurpose(
      "Annual General Meeting/Final Dividend - Rs 7 Per Share/Special "
      "Dividend - Rs 3 Per Share",
      5);
  ASSERT_TRUE(actions.ok()) << actions.status();
  ASSERT_EQ(actions->size(), 2u);
  EXPECT_EQ((*actions)[0].amount, 7);
  EXPECT_EQ((*actions)[1].amount, 3);
  EXPECT_NE((*actions)[0].description, (*actions)[1].description);
  auto agm = ParsePurpose("AGM", 5);
  ASSERT_TRUE(agm.ok());
  EXPECT_TRUE(agm->empty());
}

TEST(Purpose, WhatIsNotUnderstoodIsNotGuessed) {
  for (const char* purpose :
       {"Bonus", "Bonus 0:1", "Bonus 1:0", "Dividend", "Demerger",
        "Face Value Split From Rs 2 To Rs 10", "Something New",
        "Dividend - 10%/Spin Off", "Face Value Split From Rs 10 To Rs 10",
        "Rights 1:5"}) {
    auto actions = ParsePurpose(purpose, std::nullopt);
    EXPECT_FALSE(actions.ok()) << purpose;
    EXPECT_EQ(actions.status().message().rfind("PURPOSE part", 0), 0u)
        << actions.status();
  }
}

TEST(CorporateActionsFile, RowsRejectedAndIgnoredByLine) {
  auto parsed = ParseCorporateActions(
      "\"SYMBOL\",\"COMPANY NAME\",\"SERIES\",\"PURPOSE\",\"FACE VALUE\","
      "\"EX-DATE\",\"RECORD DATE\"\n"
      "ABC,Abc Ltd,EQ,Bonus 1:1,10,14-Aug-2024,14-Aug-2024\n"
      "ABC,Abc Ltd,EQ,AGM,10,15-Aug-2024,-\n"
      "ABC,Abc Ltd,EQ,Demerger,10,16-Aug-2024,-\n"
      "ABC,Abc Ltd,EQ,Bonus 1:1,10,-,-\n"
      "ABC,Abc Ltd,EQ,\"Dividend - Rs 2, Per Share\",10,06-OCT-2008,-\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->rows.size(), 2u);
  EXPECT_EQ(parsed->rows[0].line, 2);
  EXPECT_EQ(parsed->rows[0].ex_date, absl::CivilDay(2024, 8, 14));
  EXPECT_EQ(parsed->rows[0].actions[0].ex_date, absl::CivilDay(2024, 8, 14));
  EXPECT_EQ(parsed->rows[1].ex_date, absl::CivilDay(2008, 10, 6));
  ASSERT_EQ(parsed->ignored.size(), 1u);
  EXPECT_EQ(parsed->ignored[0].line, 3);
  ASSERT_EQ(parsed->rejected.size(), 2u);
  EXPECT_EQ(parsed->rejected[0].line, 4);
  EXPECT_EQ(parsed->rejected[1].line, 5);
  EXPECT_EQ(parsed->rejected[1].reason, "EX-DATE: empty");
}

TEST(CorporateActionsFile, EquityListIsTheWrongKind) {
  auto parsed = ParseCorporateActions(
      "SYMBOL,NAME OF COMPANY,SERIES,DATE OF LISTING\nA,B,EQ,-\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("PURPOSE"), std::string::npos);
}

CorporateAction Action(ActionKind kind, absl::CivilDay ex, double a, double b,
                       double amount = 0) {
  CorporateAction action;
  action.kind = kind;
  action.ex_date = ex;
  action.ratio_a = a;
  action.ratio_b = b;
  action.amount = amount;
  return action;
}

TEST(Factors, OfEachKind) {
  const absl::CivilDay ex(2024, 8, 14);
  auto bonus = FactorsOf(Action(ActionKind::kBonus, ex, 1, 1), std::nullopt);
  EXPECT_EQ(bonus->price, 0.5);
  EXPECT_EQ(bonus->volume, 2);
  auto split = FactorsOf(Action(ActionKind::kSplit, ex, 10, 2), std::nullopt);
  EXPECT_DOUBLE_EQ(split->price, 0.2);
  EXPECT_DOUBLE_EQ(split->volume, 5);
  auto consolidation =
      FactorsOf(Action(ActionKind::kConsolidation, ex, 1, 10), std::nullopt);
  EXPECT_EQ(consolidation->price, 10);
  EXPECT_EQ(consolidation->volume, 0.1);
  auto dividend = FactorsOf(Action(ActionKind::kDividend, ex, 0, 0, 5), 200.0);
  EXPECT_DOUBLE_EQ(dividend->price, 0.975);
  EXPECT_EQ(dividend->volume, 1);
  EXPECT_FALSE(
      FactorsOf(Action(ActionKind::kDividend, ex, 0, 0, 5), std::nullopt));
  EXPECT_FALSE(FactorsOf(Action(ActionKind::kDividend, ex, 0, 0, 5), 5.0));
  // 1 new for 5 held at 100 with the close at 130: (5*130 + 100) / (6*130).
  auto rights = FactorsOf(Action(ActionKind::kRights, ex, 1, 5, 100), 130.0);
  EXPECT_DOUBLE_EQ(rights->price, 750.0 / 780.0);
}

TEST(Adjustment, ParsesTheThreeValues) {
  EXPECT_EQ(*ParseAdjustment(""), Adjustment::kRaw);
  EXPECT_EQ(*ParseAdjustment("raw"), Adjustment::kRaw);
  EXPECT_EQ(*ParseAdjustment("split"), Adjustment::kSplit);
  EXPECT_EQ(*ParseAdjustment("all"), Adjustment::kAll);
  auto bad = ParseAdjustment("dividend");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "must be raw, split or all; got \"dividend\"");
  EXPECT_FALSE(ParseAdjustment("ALL").ok());
}

TEST(Adjustment, CumulativeFactorsPointInTimeAndKinds) {
  const absl::CivilDay bonus_day(2024, 3, 4), split_day(2024, 6, 3),
      dividend_day(2024, 9, 2);
  const std::vector<CorporateAction> actions = {
      Action(ActionKind::kDividend, dividend_day, 0, 0, 10),
      Action(ActionKind::kBonus, bonus_day, 1, 1),
      Action(ActionKind::kSplit, split_day, 10, 2)};
  int closes_read = 0;
  PreviousCloseReader close =
      [&](absl::CivilDay day) -> absl::StatusOr<std::optional<double>> {
    ++closes_read;
    EXPECT_EQ(day, dividend_day);
    return std::optional<double>(40.0);
  };
  auto all = AdjustmentFactors::For(Adjustment::kAll, actions,
                                    absl::CivilDay(2025, 1, 1), close);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(closes_read, 1);
  // Before the bonus: 0.5 * 0.2 * (1 - 10/40).
  EXPECT_DOUBLE_EQ(all->PriceFactor(bonus_day - 1), 0.5 * 0.2 * 0.75);
  EXPECT_DOUBLE_EQ(all->VolumeFactor(bonus_day - 1), 10);
  // On the bonus's ex-date it no longer applies.
  EXPECT_DOUBLE_EQ(all->PriceFactor(bonus_day), 0.2 * 0.75);
  EXPECT_DOUBLE_EQ(all->PriceFactor(split_day), 0.75);
  EXPECT_DOUBLE_EQ(all->VolumeFactor(split_day), 1);
  EXPECT_DOUBLE_EQ(all->PriceFactor(dividend_day), 1);

  auto split_only = AdjustmentFactors::For(Adjustment::kSplit, actions,
                                           absl::CivilDay(2025, 1, 1), close);
  EXPECT_EQ(closes_read, 1);  // no dividend, no close read
  EXPECT_DOUBLE_EQ(split_only->PriceFactor(bonus_day - 1), 0.1);

  // As of the day before the split: only the bonus is known.
  auto before_split =
      AdjustmentFactors::For(Adjustment::kAll, actions, split_day - 1, close);
  EXPECT_DOUBLE_EQ(before_split->PriceFactor(bonus_day - 1), 0.5);
  EXPECT_DOUBLE_EQ(before_split->PriceFactor(bonus_day), 1);
  // As of the split's ex-date it is known.
  auto on_split =
      AdjustmentFactors::For(Adjustment::kSplit, actions, split_day, close);
  EXPECT_DOUBLE_EQ(on_split->PriceFactor(bonus_day), 0.2);

  auto raw = AdjustmentFactors::For(Adjustment::kRaw, actions,
                                    absl::CivilDay(2025, 1, 1), close);
  EXPECT_TRUE(raw->identity());
}

TEST(Adjustment, AdjustsPricePointsOfTheirTradingDay) {
  const absl::CivilDay ex(2024, 8, 14);
  auto factors = AdjustmentFactors::For(
      Adjustment::kSplit, {Action(ActionKind::kBonus, ex, 1, 1)}, ex,
      [](absl::CivilDay) -> absl::StatusOr<std::optional<double>> {
        return std::nullopt;
      });
  ASSERT_TRUE(factors.ok());
  PricePoint before{SessionOpen(ex - 1), 200.0, 1000.0};
  PricePoint after{SessionOpen(ex), 100.0, 2000.0};
  PricePoint adjusted = factors->Adjust(before);
  EXPECT_EQ(adjusted.last_price, 100.0);
  EXPECT_EQ(adjusted.volume, 2000.0);
  EXPECT_EQ(factors->Adjust(after).last_price, 100.0);
  EXPECT_EQ(factors->Adjust(after).volume, 2000.0);
}

}  // namespace
}  // namespace mdc::domain
