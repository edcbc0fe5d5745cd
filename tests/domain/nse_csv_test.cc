#include "domain/nse_csv.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

TEST(NseCsv, HeaderSpacingCaseBomCrlfAndQuotedCommas) {
  auto rows = ReadCsvTable(
      "\xEF\xBB\xBFSymbol , NAME OF COMPANY, SERIES\r\n"
      "ABC,\"Abc, Ltd.\", EQ\r\n"
      "\r\n"
      "XYZ,\"Say \"\"hi\"\"\",BE\r\n",
      {"SYMBOL", "SERIES", "NAME OF COMPANY"}, "a file");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].line, 2);
  EXPECT_EQ((*rows)[0].fields,
            (std::vector<std::string>{"ABC", "EQ", "Abc, Ltd."}));
  EXPECT_EQ((*rows)[1].line, 4);  // the blank line 3 still counts
  EXPECT_EQ((*rows)[1].fields[2], "Say \"hi\"");
}

TEST(NseCsv, ShortRowsGetEmptyFields) {
  auto rows = ReadCsvTable("A,B\n1\n", {"A", "B"}, "x");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0].fields, (std::vector<std::string>{"1", ""}));
}

TEST(NseCsv, MissingColumnsNameThemAndTheFileExpected) {
  auto rows =
      ReadCsvTable("SYMBOL,NAME\nA,B\n",
                   {"SYMBOL", "ISIN NUMBER", "FACE VALUE"}, "the equity list");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(rows.status().message(),
            "line 1: the header lacks columns ISIN NUMBER, FACE VALUE; "
            "expected the equity list");
}

TEST(NseCsv, EmptyUnclosedQuoteBinaryAndBadUtf8AreRefused) {
  EXPECT_FALSE(ReadCsvTable("", {"A"}, "x").ok());
  EXPECT_FALSE(ReadCsvTable("\n\n", {"A"}, "x").ok());
  auto unclosed = ReadCsvTable("A\n\"abc\n", {"A"}, "x");
  ASSERT_FALSE(unclosed.ok());
  EXPECT_EQ(unclosed.status().message(),
            "line 2: a quoted field is never closed");
  EXPECT_FALSE(ReadCsvTable(std::string("A\n\0\n", 4), {"A"}, "x").ok());
  EXPECT_FALSE(ReadCsvTable("A\n\xC3\x28\n", {"A"}, "x").ok());
  EXPECT_TRUE(ReadCsvTable("A\n\xC3\xA9\n", {"A"}, "x").ok());
}

TEST(NseCsv, DatesInNseForms) {
  EXPECT_EQ(*ParseNseDate("06-OCT-2008"), absl::CivilDay(2008, 10, 6));
  EXPECT_EQ(*ParseNseDate("14-Aug-2024"), absl::CivilDay(2024, 8, 14));
  EXPECT_EQ(*ParseNseDate(" 14-aug-2024 "), absl::CivilDay(2024, 8, 14));
  EXPECT_EQ(*ParseNseDate("14-08-2024"), absl::CivilDay(2024, 8, 14));
  EXPECT_EQ(*ParseNseDate("2024-08-14"), absl::CivilDay(2024, 8, 14));
  EXPECT_FALSE(ParseNseDate("30-FEB-2024").ok());
  EXPECT_FALSE(ParseNseDate("14-Augu-2024").ok());
  EXPECT_FALSE(ParseNseDate("14/08/2024").ok());
  EXPECT_FALSE(ParseNseDate("-").ok());
  EXPECT_FALSE(ParseNseDate("01-JAN-1899").ok());
}

TEST(NseCsv, EmptyMarkersAndNumbers) {
  EXPECT_TRUE(IsNseEmpty("-"));
  EXPECT_TRUE(IsNseEmpty("  "));
  EXPECT_FALSE(IsNseEmpty("0"));
  EXPECT_EQ(*ParseNseNumber("2.50"), 2.5);
  EXPECT_EQ(*ParseNseNumber("10"), 10);
  EXPECT_FALSE(ParseNseNumber("-1").has_value());
  EXPECT_FALSE(ParseNseNumber("1.2.3").has_value());
  EXPECT_FALSE(ParseNseNumber(".").has_value());
  EXPECT_FALSE(ParseNseNumber("1e3").has_value());
}

}  // namespace
}  // namespace mdc::domain
