#include "domain/daily_analytics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace mdc::domain {
namespace {

v1::Shortlist Snapshot(const std::vector<std::string>& symbols) {
  v1::Shortlist s;
  for (const auto& symbol : symbols) {
    auto* e = s.add_entries();
    e->set_nse_symbol(symbol);
    e->set_name(symbol + " Ltd");
  }
  return s;
}

// Ten snapshots: A in all 10, B in 8, C in 7.
std::vector<v1::Shortlist> TenSnapshots() {
  std::vector<v1::Shortlist> snapshots;
  for (int i = 0; i < 10; ++i) {
    std::vector<std::string> symbols = {"A"};
    if (i < 8) symbols.push_back("B");
    if (i >= 3) symbols.push_back("C");
    snapshots.push_back(Snapshot(symbols));
  }
  return snapshots;
}

TEST(PersistentCompanies, EightyPercentKeepsTenAndEightOfTen) {
  const DailyPersistence result = PersistentCompanies(TenSnapshots(), 80);
  EXPECT_EQ(result.total_snapshots, 10);
  ASSERT_EQ(result.companies.size(), 2u);
  EXPECT_EQ(result.companies[0].nse_symbol, "A");
  EXPECT_EQ(result.companies[0].count, 10);
  EXPECT_EQ(result.companies[0].percentage, 100.0);
  EXPECT_EQ(result.companies[0].name, "A Ltd");
  EXPECT_EQ(result.companies[1].nse_symbol, "B");
  EXPECT_EQ(result.companies[1].count, 8);
  EXPECT_EQ(result.companies[1].percentage, 80.0);
}

TEST(PersistentCompanies, SeventyPercentOfTenNeedsSevenNotEight) {
  // 0.7 x 10 is 7.000000000000001 in binary; the rule must still need 7.
  const DailyPersistence result = PersistentCompanies(TenSnapshots(), 70);
  ASSERT_EQ(result.companies.size(), 3u);
  EXPECT_EQ(result.companies[2].nse_symbol, "C");
  EXPECT_EQ(result.companies[2].percentage, 70.0);
}

TEST(PersistentCompanies, CeilRule) {
  // 3 snapshots at 50%: ceil(1.5) = 2 needed.
  const std::vector<v1::Shortlist> snapshots = {
      Snapshot({"X", "Y"}), Snapshot({"X"}), Snapshot({"Z"})};
  const DailyPersistence result = PersistentCompanies(snapshots, 50);
  ASSERT_EQ(result.companies.size(), 1u);
  EXPECT_EQ(result.companies[0].nse_symbol, "X");
  EXPECT_EQ(result.companies[0].percentage, 66.7);
}

TEST(PersistentCompanies, EmptySnapshotsCountInTheTotal) {
  std::vector<v1::Shortlist> snapshots = TenSnapshots();
  snapshots.push_back(Snapshot({}));
  snapshots.push_back(Snapshot({}));
  // 12 snapshots: 80% needs ceil(9.6) = 10; B (8) drops out.
  const DailyPersistence result = PersistentCompanies(snapshots, 80);
  EXPECT_EQ(result.total_snapshots, 12);
  ASSERT_EQ(result.companies.size(), 1u);
  EXPECT_EQ(result.companies[0].nse_symbol, "A");
  EXPECT_EQ(result.companies[0].percentage, 83.3);
}

TEST(PersistentCompanies, ASymbolCountsOncePerSnapshot) {
  const std::vector<v1::Shortlist> snapshots = {Snapshot({"A", "A"}),
                                                Snapshot({"B"})};
  const DailyPersistence result = PersistentCompanies(snapshots, 100);
  EXPECT_TRUE(result.companies.empty());
}

TEST(PersistentCompanies, TiesSortBySymbol) {
  const std::vector<v1::Shortlist> snapshots = {Snapshot({"M", "B", "Z"})};
  const DailyPersistence result = PersistentCompanies(snapshots, 80);
  ASSERT_EQ(result.companies.size(), 3u);
  EXPECT_EQ(result.companies[0].nse_symbol, "B");
  EXPECT_EQ(result.companies[1].nse_symbol, "M");
  EXPECT_EQ(result.companies[2].nse_symbol, "Z");
}

TEST(PersistentCompanies, NoSnapshots) {
  const DailyPersistence result = PersistentCompanies({}, 80);
  EXPECT_EQ(result.total_snapshots, 0);
  EXPECT_TRUE(result.companies.empty());
}

TEST(MinPercentage, DefaultAndRange) {
  EXPECT_EQ(*MinPercentageOrDefault(std::nullopt), 80);
  EXPECT_EQ(*MinPercentageOrDefault(0), 0);
  EXPECT_EQ(*MinPercentageOrDefault(100), 100);
  EXPECT_FALSE(MinPercentageOrDefault(-1).ok());
  EXPECT_FALSE(MinPercentageOrDefault(100.5).ok());
  EXPECT_FALSE(MinPercentageOrDefault(std::nan("")).ok());
}

TEST(UniqueSymbols, TwoSnapshotsOfTenCompanies) {
  const std::vector<v1::Shortlist> snapshots = {
      Snapshot({"A", "B", "C", "D", "E"}), Snapshot({"F", "G", "H", "I", "J"})};
  const std::vector<std::string> symbols = UniqueSymbols(snapshots);
  EXPECT_EQ(symbols, (std::vector<std::string>{"A", "B", "C", "D", "E", "F",
                                               "G", "H", "I", "J"}));
}

TEST(UniqueSymbols, RepeatsCountOnce) {
  const std::vector<v1::Shortlist> snapshots = {Snapshot({"B", "A"}),
                                                Snapshot({"A", "C", "B"})};
  EXPECT_EQ(UniqueSymbols(snapshots),
            (std::vector<std::string>{"A", "B", "C"}));
}

}  // namespace
}  // namespace mdc::domain
