// Shortlist persistence (section 5.1) over hand-made snapshots.
#include "domain/persistence.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace mdc::domain {
namespace {

v1::Shortlist Snapshot(
    const std::vector<std::pair<std::string, std::string>>& entries) {
  v1::Shortlist snapshot;
  for (const auto& [symbol, name] : entries) {
    auto* entry = snapshot.add_entries();
    entry->set_nse_symbol(symbol);
    entry->set_name(name);
  }
  return snapshot;
}

TEST(Persistence, CountsNonEmptySnapshotsAndRoundsToOneDecimal) {
  PersistenceCounter counter;
  counter.Add(Snapshot({{"A", "A Ltd"}, {"B", "B Ltd"}, {"C", "C Ltd"}}));
  counter.Add(Snapshot({}));  // an empty snapshot does not count
  counter.Add(Snapshot({{"B", "B Ltd"}, {"A", "A Ltd"}}));
  counter.Add(Snapshot({{"A", "A Ltd"}}));
  const Persistence result = counter.Finish();
  EXPECT_EQ(result.total_snapshots, 3);
  ASSERT_EQ(result.symbols.size(), 3u);
  EXPECT_EQ(result.symbols[0].nse_symbol, "A");
  EXPECT_EQ(result.symbols[0].appearance_count, 3);
  EXPECT_DOUBLE_EQ(result.symbols[0].percentage, 100.0);
  EXPECT_EQ(result.symbols[1].nse_symbol, "B");
  EXPECT_EQ(result.symbols[1].appearance_count, 2);
  EXPECT_DOUBLE_EQ(result.symbols[1].percentage, 66.7);
  EXPECT_EQ(result.symbols[2].nse_symbol, "C");
  EXPECT_EQ(result.symbols[2].appearance_count, 1);
  EXPECT_DOUBLE_EQ(result.symbols[2].percentage, 33.3);
}

TEST(Persistence, CountsASymbolOncePerSnapshot) {
  PersistenceCounter counter;
  counter.Add(Snapshot({{"A", "A Ltd"}, {"A", "A again"}}));
  counter.Add(Snapshot({{"B", "B Ltd"}}));
  const Persistence result = counter.Finish();
  EXPECT_EQ(result.total_snapshots, 2);
  ASSERT_EQ(result.symbols.size(), 2u);
  EXPECT_EQ(result.symbols[0].appearance_count, 1);
  EXPECT_DOUBLE_EQ(result.symbols[0].percentage, 50.0);
}

TEST(Persistence, TiesKeepFirstAppearanceAndItsName) {
  PersistenceCounter counter;
  counter.Add(Snapshot({{"Z", "Zeta first"}, {"M", "Mu"}}));
  counter.Add(Snapshot({{"A", "Alpha"}, {"Z", "Zeta renamed"}, {"M", "Mu"}}));
  counter.Add(Snapshot({{"A", "Alpha"}}));
  const Persistence result = counter.Finish();
  ASSERT_EQ(result.symbols.size(), 3u);
  // All three appear twice: order of first appearance (Z, M rank 1 and 2 of
  // the first snapshot, then A).
  EXPECT_EQ(result.symbols[0].nse_symbol, "Z");
  EXPECT_EQ(result.symbols[0].name, "Zeta first");
  EXPECT_EQ(result.symbols[1].nse_symbol, "M");
  EXPECT_EQ(result.symbols[2].nse_symbol, "A");
}

TEST(Persistence, NothingGivesZeroTotalAndNoSymbols) {
  PersistenceCounter counter;
  counter.Add(Snapshot({}));
  const Persistence result = counter.Finish();
  EXPECT_EQ(result.total_snapshots, 0);
  EXPECT_TRUE(result.symbols.empty());
}

TEST(RoundToOneDecimal, RoundsHalfAwayFromZero) {
  EXPECT_DOUBLE_EQ(RoundToOneDecimal(100.0 * 2 / 3), 66.7);
  EXPECT_DOUBLE_EQ(RoundToOneDecimal(100.0 / 3), 33.3);
  EXPECT_DOUBLE_EQ(RoundToOneDecimal(100.0 / 8), 12.5);
  EXPECT_DOUBLE_EQ(RoundToOneDecimal(100.0 / 16), 6.3);
}

}  // namespace
}  // namespace mdc::domain
