// An admin's entry of one corporate action: every bad field named, the
// numbers of each kind, and a description written from them.
#include "domain/corporate_action_entry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::testing::UnorderedElementsAre;

// A Rs 10 to Rs 2 split of INFY (ISIN INE009A01021) ex 2024-08-16.
v1::CreateCorporateActionRequest Split() {
  v1::CreateCorporateActionRequest request;
  request.set_isin("INE009A01021");
  request.set_kind("split");
  request.set_ex_date("2024-08-16");
  request.set_old_face_value(10);
  request.set_new_face_value(2);
  return request;
}

TEST(CorporateActionEntry, ASplitByIsinWithItsDescription) {
  auto entry = ParseActionEntry(Split());
  ASSERT_TRUE(entry.ok()) << entry.status();
  EXPECT_EQ(entry->isin, "INE009A01021");
  EXPECT_EQ(entry->symbol, "");
  EXPECT_EQ(entry->action.kind, ActionKind::kSplit);
  EXPECT_EQ(entry->action.ex_date, absl::CivilDay(2024, 8, 16));
  EXPECT_EQ(entry->action.ratio_a, 10);
  EXPECT_EQ(entry->action.ratio_b, 2);
  EXPECT_EQ(entry->action.description, "Split From Rs 10 To Rs 2");
}

TEST(CorporateActionEntry, EachKindTakesItsNumbers) {
  v1::CreateCorporateActionRequest bonus;
  bonus.set_symbol("INFY");
  bonus.set_kind("bonus");
  bonus.set_ex_date("2024-08-08");
  bonus.set_new_shares(1);
  bonus.set_held_shares(1);
  auto b = ParseActionEntry(bonus);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->symbol, "INFY");
  EXPECT_EQ(b->action.description, "Bonus 1:1");

  v1::CreateCorporateActionRequest dividend;
  dividend.set_symbol("INFY");
  dividend.set_kind("dividend");
  dividend.set_ex_date("2024-08-23");
  dividend.set_amount(2.5);
  dividend.set_description("Special Dividend");
  auto d = ParseActionEntry(dividend);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->action.amount, 2.5);
  EXPECT_EQ(d->action.description, "Special Dividend");

  v1::CreateCorporateActionRequest rights = bonus;
  rights.set_kind("rights");
  rights.set_held_shares(5);
  rights.set_amount(120);
  auto r = ParseActionEntry(rights);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->action.description, "Rights 1:5 @ Rs 120");

  v1::CreateCorporateActionRequest consolidation = Split();
  consolidation.set_kind("consolidation");
  consolidation.set_old_face_value(1);
  consolidation.set_new_face_value(10);
  auto c = ParseActionEntry(consolidation);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->action.description, "Consolidation From Rs 1 To Rs 10");
}

TEST(CorporateActionEntry, BadNumbersAreNamed) {
  v1::CreateCorporateActionRequest zero = Split();
  zero.set_new_face_value(0);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(zero).status()),
              UnorderedElementsAre("new_face_value"));
  v1::CreateCorporateActionRequest negative = Split();
  negative.set_old_face_value(-10);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(negative).status()),
              UnorderedElementsAre("old_face_value"));
  v1::CreateCorporateActionRequest raising = Split();
  raising.set_new_face_value(20);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(raising).status()),
              UnorderedElementsAre("new_face_value"));
  v1::CreateCorporateActionRequest unused = Split();
  unused.set_amount(4);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(unused).status()),
              UnorderedElementsAre("amount"));
  v1::CreateCorporateActionRequest infinite;
  infinite.set_symbol("INFY");
  infinite.set_kind("dividend");
  infinite.set_ex_date("2024-08-23");
  infinite.set_amount(std::numeric_limits<double>::infinity());
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(infinite).status()),
              UnorderedElementsAre("amount"));
  v1::CreateCorporateActionRequest huge = Split();
  huge.set_old_face_value(1e306);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(huge).status()),
              UnorderedElementsAre("old_face_value"));
  v1::CreateCorporateActionRequest bonus = infinite;
  bonus.set_kind("bonus");
  bonus.set_amount(0);
  bonus.set_new_shares(1);
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(bonus).status()),
              UnorderedElementsAre("held_shares"));
}

TEST(CorporateActionEntry, EveryBadFieldAtOnce) {
  v1::CreateCorporateActionRequest request;
  request.set_kind("demerger");
  request.set_ex_date("2024-02-30");
  request.set_description("tab\there");
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(request).status()),
              UnorderedElementsAre("isin", "kind", "ex_date", "description"));

  v1::CreateCorporateActionRequest both = Split();
  both.set_symbol("INFY");
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(both).status()),
              UnorderedElementsAre("isin"));
  v1::CreateCorporateActionRequest bad_isin = Split();
  bad_isin.set_isin("INE009A01022");  // wrong check digit
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(bad_isin).status()),
              UnorderedElementsAre("isin"));
  v1::CreateCorporateActionRequest bad_symbol = Split();
  bad_symbol.clear_isin();
  bad_symbol.set_symbol("NOT A SYMBOL");
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(bad_symbol).status()),
              UnorderedElementsAre("symbol"));
  v1::CreateCorporateActionRequest no_date = Split();
  no_date.clear_ex_date();
  EXPECT_THAT(testing::ViolatedFields(ParseActionEntry(no_date).status()),
              UnorderedElementsAre("ex_date"));
}

}  // namespace
}  // namespace mdc::domain
