#include "storage/instrument_repository.h"

#include <gtest/gtest.h>

#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr char kIsin[] = "INE009A01021";

class InstrumentRepositoryTest : public ::testing::Test {
 protected:
  testing::TestDatabase db_;
  InstrumentRepository instruments_{db_.pool()};
};

domain::EquityListEntry Entry(std::string symbol) {
  domain::EquityListEntry e;
  e.line = 2;
  e.symbol = std::move(symbol);
  e.instrument.isin = kIsin;
  e.instrument.name = "Infosys Limited";
  e.instrument.series = "EQ";
  e.instrument.listing_date = absl::CivilDay(1995, 2, 8);
  e.instrument.face_value = 5;
  e.instrument.market_lot = 1;
  return e;
}

TEST_F(InstrumentRepositoryTest, ImportsRenamesAndReimportsChangeNothing) {
  auto first = instruments_.ImportEquityList({Entry("INFOSYS")});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->imported, 1);
  domain::SymbolChange rename;
  rename.line = 2;
  rename.old_symbol = "INFOSYS";
  rename.new_symbol = "INFY";
  rename.applicable_from = absl::CivilDay(2000, 1, 3);
  ASSERT_EQ(instruments_.ImportSymbolChanges({rename})->imported, 1);
  EXPECT_EQ(instruments_.ImportSymbolChanges({rename})->unchanged, 1);
  EXPECT_EQ(instruments_.ImportEquityList({Entry("INFY")})->unchanged, 1);
  EXPECT_EQ(db_.Query("SELECT string_agg(symbol || '@' || valid_from, ',' "
                      "ORDER BY valid_from) FROM instrument_symbols"),
            "INFOSYS@1995-02-08,INFY@2000-01-03");

  auto found = instruments_.FindBySymbol("INFOSYS");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->instrument.face_value, 5);
  EXPECT_EQ((*found)->instrument.market_lot, 1);
  EXPECT_EQ((*found)->symbols.size(), 2u);
  InstrumentQuery by_name;
  by_name.prefix = "infosys";
  auto listed = instruments_.List(by_name, 10);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_FALSE(instruments_.FindBySymbol("TCS")->has_value());
}

TEST_F(InstrumentRepositoryTest, ActionsAreTiedByTheSymbolOfTheirExDate) {
  ASSERT_TRUE(instruments_.ImportEquityList({Entry("INFY")}).ok());
  domain::CorporateActionRow row;
  row.line = 2;
  row.symbol = "INFY";
  row.ex_date = absl::CivilDay(2024, 8, 14);
  domain::CorporateAction bonus;
  bonus.kind = domain::ActionKind::kBonus;
  bonus.ex_date = row.ex_date;
  bonus.ratio_a = 1;
  bonus.ratio_b = 1;
  bonus.description = "Bonus 1:1";
  row.actions = {bonus};
  domain::CorporateActionRow unknown = row;
  unknown.line = 3;
  unknown.symbol = "NOPE";
  auto imported = instruments_.ImportCorporateActions({row, unknown});
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(imported->imported, 1);
  ASSERT_EQ(imported->rejected.size(), 1u);
  EXPECT_EQ(imported->rejected[0].line, 3);
  EXPECT_EQ(instruments_.ImportCorporateActions({row})->unchanged, 1);
  auto actions = instruments_.Actions(kIsin, absl::CivilDay(2024, 1, 1),
                                      absl::CivilDay(2024, 12, 31));
  ASSERT_TRUE(actions.ok());
  ASSERT_EQ(actions->size(), 1u);
  EXPECT_EQ((*actions)[0].kind, domain::ActionKind::kBonus);
  EXPECT_EQ((*actions)[0].ratio_a, 1);
  EXPECT_TRUE(instruments_
                  .Actions(kIsin, absl::CivilDay(2025, 1, 1),
                           absl::CivilDay(2025, 12, 31))
                  ->empty());
}

}  // namespace
}  // namespace mdc::storage
