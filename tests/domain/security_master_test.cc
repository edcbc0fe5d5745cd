#include "domain/security_master.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

// Real ISINs of NSE's list: their check digits are right.
constexpr char kInfyIsin[] = "INE009A01021";
constexpr char kTcsIsin[] = "INE467B01029";

constexpr char kEquityHeader[] =
    "SYMBOL,NAME OF COMPANY, SERIES, DATE OF LISTING, PAID UP VALUE, MARKET "
    "LOT, ISIN NUMBER, FACE VALUE\n";

TEST(SecurityMaster, IsinCheckDigit) {
  EXPECT_TRUE(CheckIsin(kInfyIsin).ok());
  EXPECT_TRUE(CheckIsin(kTcsIsin).ok());
  EXPECT_TRUE(CheckIsin("US0378331005").ok());  // Apple
  EXPECT_FALSE(CheckIsin("INE009A01022").ok());
  EXPECT_FALSE(CheckIsin("INE009A0102").ok());
  EXPECT_FALSE(CheckIsin("1NE009A01021").ok());
  EXPECT_FALSE(CheckIsin("ine009a01021").ok());
}

TEST(SecurityMaster, ParsesEquityListAndRejectsBadRowsByLine) {
  auto parsed = ParseEquityList(
      std::string(kEquityHeader) +
      "INFY,Infosys Limited,EQ,08-FEB-1995,5,1,INE009A01021,5\n"
      "TCS,\"Tata Consultancy Services, Ltd\",EQ,25-Aug-2004,1,1,"
      "INE467B01029,1\n"
      "BAD SYMBOL,X,EQ,-,1,1,INE467B01029,1\n"
      "ABC,Abc,EQ,-,1,1,INE000000000,1\n"
      "DEF,Def,EQ,31-FEB-2004,1,1,INE467B01029,1\n"
      "GHI,Ghi,EQ,-,x,1,INE467B01029,1\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->rows.size(), 2u);
  const Instrument& infy = parsed->rows[0].instrument;
  EXPECT_EQ(parsed->rows[0].symbol, "INFY");
  EXPECT_EQ(infy.isin, kInfyIsin);
  EXPECT_EQ(infy.listing_date, absl::CivilDay(1995, 2, 8));
  EXPECT_EQ(infy.face_value, 5);
  EXPECT_EQ(infy.market_lot, 1);
  EXPECT_EQ(parsed->rows[1].instrument.name, "Tata Consultancy Services, Ltd");
  ASSERT_EQ(parsed->rejected.size(), 4u);
  EXPECT_EQ(parsed->rejected[0].line, 4);
  EXPECT_EQ(parsed->rejected[0].reason.rfind("SYMBOL:", 0), 0u);
  EXPECT_EQ(parsed->rejected[1].line, 5);
  EXPECT_EQ(parsed->rejected[1].reason.rfind("ISIN NUMBER:", 0), 0u);
  EXPECT_EQ(parsed->rejected[2].reason.rfind("DATE OF LISTING:", 0), 0u);
  EXPECT_EQ(parsed->rejected[3].reason.rfind("PAID UP VALUE", 0), 0u);
}

TEST(SecurityMaster, WrongKindOfFileFailsWhole) {
  auto parsed = ParseEquityList(
      "SM_NAME_OF_COMPANY,SM_KEY_SYMBOL,SM_NEW_SYMBOL,SM_APPLICABLE_FROM\n");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("ISIN NUMBER"), std::string::npos);
  EXPECT_FALSE(ParseSymbolChanges(kEquityHeader).ok());
}

EquityListEntry Entry(int line, std::string symbol, std::string isin,
                      absl::CivilDay listed) {
  EquityListEntry e;
  e.line = line;
  e.symbol = std::move(symbol);
  e.instrument.isin = std::move(isin);
  e.instrument.name = "Company";
  e.instrument.series = "EQ";
  e.instrument.listing_date = listed;
  return e;
}

SymbolChange Change(int line, std::string from, std::string to,
                    absl::CivilDay day) {
  SymbolChange c;
  c.line = line;
  c.old_symbol = std::move(from);
  c.new_symbol = std::move(to);
  c.applicable_from = day;
  return c;
}

TEST(SecurityMaster, EquityListReimportChangesNothing) {
  SecurityMaster master;
  std::vector<EquityListEntry> rows = {
      Entry(2, "INFY", kInfyIsin, absl::CivilDay(1995, 2, 8)),
      Entry(3, "TCS", kTcsIsin, absl::CivilDay(2004, 8, 25))};
  ImportOutcome first = MergeEquityList(master, rows);
  EXPECT_EQ(first.imported, 2);
  EXPECT_EQ(first.unchanged, 0);
  ImportOutcome again = MergeEquityList(master, rows);
  EXPECT_EQ(again.imported, 0);
  EXPECT_EQ(again.unchanged, 2);
  EXPECT_TRUE(again.rejected.empty());
  rows[0].instrument.name = "Infosys Ltd";
  EXPECT_EQ(MergeEquityList(master, rows).imported, 1);
  EXPECT_EQ(master.instruments[kInfyIsin].name, "Infosys Ltd");
}

TEST(SecurityMaster, EquityListRefusesARenameWithoutDateAndATakenSymbol) {
  SecurityMaster master;
  MergeEquityList(master,
                  {Entry(2, "INFY", kInfyIsin, absl::CivilDay(1995, 2, 8))});
  ImportOutcome outcome = MergeEquityList(
      master, {Entry(2, "INFOSYS", kInfyIsin, absl::CivilDay(1995, 2, 8)),
               Entry(3, "INFY", kTcsIsin, absl::CivilDay(2004, 8, 25))});
  EXPECT_EQ(outcome.imported, 0);
  ASSERT_EQ(outcome.rejected.size(), 2u);
  EXPECT_EQ(outcome.rejected[0].line, 2);
  EXPECT_NE(outcome.rejected[0].reason.find("symbol-change list"),
            std::string::npos);
  EXPECT_NE(outcome.rejected[1].reason.find(kInfyIsin), std::string::npos);
}

TEST(SecurityMaster, RenameAfterTheOldSymbolWasImported) {
  SecurityMaster master;
  MergeEquityList(master,
                  {Entry(2, "OLDCO", kInfyIsin, absl::CivilDay(2000, 1, 3))});
  ImportOutcome outcome = ApplySymbolChanges(
      master, {Change(2, "OLDCO", "NEWCO", absl::CivilDay(2024, 8, 14))});
  EXPECT_EQ(outcome.imported, 1);
  EXPECT_EQ(master.symbols[kInfyIsin],
            (SymbolHistory{{"OLDCO", absl::CivilDay(2000, 1, 3)},
                           {"NEWCO", absl::CivilDay(2024, 8, 14)}}));
  EXPECT_EQ(SymbolOn(master.symbols[kInfyIsin], absl::CivilDay(2024, 8, 13)),
            "OLDCO");
  EXPECT_EQ(SymbolOn(master.symbols[kInfyIsin], absl::CivilDay(2024, 8, 14)),
            "NEWCO");
  EXPECT_EQ(IsinOfSymbolOn(master, "OLDCO", absl::CivilDay(2024, 8, 14)),
            std::nullopt);
  EXPECT_EQ(IsinOfSymbolEver(master, "OLDCO"), kInfyIsin);
  // The same file again, and the equity list of today: nothing changes.
  ImportOutcome again = ApplySymbolChanges(
      master, {Change(2, "OLDCO", "NEWCO", absl::CivilDay(2024, 8, 14))});
  EXPECT_EQ(again.unchanged, 1);
  EXPECT_EQ(again.imported, 0);
  EXPECT_EQ(MergeEquityList(master, {Entry(2, "NEWCO", kInfyIsin,
                                           absl::CivilDay(2000, 1, 3))})
                .imported,
            0);
}

TEST(SecurityMaster, RenameChainAfterTodaysListInAnyOrder) {
  SecurityMaster master;
  MergeEquityList(master,
                  {Entry(2, "CCC", kInfyIsin, absl::CivilDay(2000, 1, 3))});
  // Listed oldest first: A->B needs B, which only B->C creates.
  ImportOutcome outcome = ApplySymbolChanges(
      master, {Change(2, "AAA", "BBB", absl::CivilDay(2010, 5, 3)),
               Change(3, "BBB", "CCC", absl::CivilDay(2020, 6, 1))});
  EXPECT_EQ(outcome.imported, 2);
  EXPECT_TRUE(outcome.rejected.empty());
  EXPECT_EQ(master.symbols[kInfyIsin],
            (SymbolHistory{{"AAA", absl::CivilDay(2000, 1, 3)},
                           {"BBB", absl::CivilDay(2010, 5, 3)},
                           {"CCC", absl::CivilDay(2020, 6, 1)}}));
}

TEST(SecurityMaster, RenameOfUnknownOrTakenSymbolIsRejected) {
  SecurityMaster master;
  MergeEquityList(master,
                  {Entry(2, "INFY", kInfyIsin, absl::CivilDay(1995, 2, 8)),
                   Entry(3, "TCS", kTcsIsin, absl::CivilDay(2004, 8, 25))});
  ImportOutcome outcome = ApplySymbolChanges(
      master, {Change(5, "NOPE", "NADA", absl::CivilDay(2020, 1, 1)),
               Change(4, "INFY", "TCS", absl::CivilDay(2020, 1, 1))});
  EXPECT_EQ(outcome.imported, 0);
  ASSERT_EQ(outcome.rejected.size(), 2u);
  EXPECT_EQ(outcome.rejected[0].line, 4);
  EXPECT_NE(outcome.rejected[0].reason.find(kTcsIsin), std::string::npos);
  EXPECT_EQ(outcome.rejected[1].line, 5);
  EXPECT_NE(outcome.rejected[1].reason.find("equity list"), std::string::npos);
}

TEST(SecurityMaster, ParsesSymbolChanges) {
  auto parsed = ParseSymbolChanges(
      "SM_NAME_OF_COMPANY, SM_KEY_SYMBOL, SM_NEW_SYMBOL, SM_APPLICABLE_FROM\n"
      "Old Co,OLDCO,NEWCO,14-AUG-2024\n"
      "Same,SAME,SAME,14-AUG-2024\n"
      "Bad date,ABC,DEF,-\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->rows.size(), 1u);
  EXPECT_EQ(parsed->rows[0].applicable_from, absl::CivilDay(2024, 8, 14));
  ASSERT_EQ(parsed->rejected.size(), 2u);
  EXPECT_EQ(parsed->rejected[0].line, 3);
  EXPECT_EQ(parsed->rejected[1].line, 4);
}

}  // namespace
}  // namespace mdc::domain
