// "NIFTY" in any case names the index on every read by symbol.
#include "domain/series_symbol.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

TEST(SeriesSymbol, NiftyInAnyCaseIsTheIndex) {
  EXPECT_TRUE(IsNiftySymbol("NIFTY"));
  EXPECT_TRUE(IsNiftySymbol("nifty"));
  EXPECT_TRUE(IsNiftySymbol("Nifty"));
  EXPECT_FALSE(IsNiftySymbol("NIFTYBEES"));
  EXPECT_FALSE(IsNiftySymbol("INFY"));
  EXPECT_TRUE(CheckSeriesSymbol("nifty").ok());
  EXPECT_TRUE(CheckSeriesSymbol("M&M").ok());
  EXPECT_FALSE(CheckSeriesSymbol("").ok());
  EXPECT_FALSE(CheckSeriesSymbol("FOO BAR").ok());
}

}  // namespace
}  // namespace mdc::domain
