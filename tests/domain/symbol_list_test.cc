#include "domain/symbol_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

google::protobuf::RepeatedPtrField<std::string> Values(
    std::vector<std::string> values) {
  return {values.begin(), values.end()};
}

TEST(SymbolList, SplitsAtCommasAndDropsRepeatsInOrder) {
  FieldErrors errors;
  SymbolListRule rule;
  EXPECT_THAT(ParseSymbolList(Values({"TCS,INFY", "M&M", "TCS"}), rule, errors),
              ElementsAre("TCS", "INFY", "M&M"));
  EXPECT_TRUE(errors.empty());
}

TEST(SymbolList, NamesEachBadSymbolByItsPlaceAfterSplitting) {
  FieldErrors errors;
  ParseSymbolList(Values({"TCS,BAD ONE", ""}), SymbolListRule(), errors);
  EXPECT_THAT(testing::ViolatedFields(errors.ToStatus()),
              ElementsAre("symbols[1]", "symbols[2]"));
}

TEST(SymbolList, CountsBeforeAnyWork) {
  SymbolListRule rule;
  rule.max_symbols = 3;
  FieldErrors errors;
  EXPECT_THAT(ParseSymbolList(Values({"A,B", "C,D"}), rule, errors), IsEmpty());
  EXPECT_THAT(testing::ViolatedFields(errors.ToStatus()),
              ElementsAre("symbols"));
  FieldErrors fine;
  EXPECT_THAT(ParseSymbolList(Values({"A,B", "C"}), rule, fine),
              ElementsAre("A", "B", "C"));
  EXPECT_TRUE(fine.empty());
}

// One rule for every list parameter: repeated values and commas mix, and
// an empty item is a bad one, named by its index after splitting.
TEST(SymbolList, RepeatedAndCommaSeparatedMix) {
  SymbolListRule rule;
  FieldErrors errors;
  EXPECT_THAT(
      ParseSymbolList(Values({"TCS", "INFY,M&M", "TCS,,X"}), rule, errors),
      ElementsAre("TCS", "INFY", "M&M", "X"));
  EXPECT_THAT(testing::ViolatedFields(errors.ToStatus()),
              ElementsAre("symbols[4]"));
}

TEST(SplitListValues, SplitsEachValueAtCommasInOrder) {
  EXPECT_THAT(SplitListValues(Values({"a,b", "c", ""})),
              ElementsAre("a", "b", "c", ""));
}

TEST(SymbolList, RequiredWhenTheRuleSays) {
  SymbolListRule rule;
  FieldErrors optional;
  EXPECT_THAT(ParseSymbolList(Values({}), rule, optional), IsEmpty());
  EXPECT_TRUE(optional.empty());
  rule.required = true;
  FieldErrors required;
  ParseSymbolList(Values({}), rule, required);
  EXPECT_THAT(testing::ViolatedFields(required.ToStatus()),
              ElementsAre("symbols"));
}

TEST(SymbolList, NiftyIsTheIndexOnlyWhereAllowed) {
  SymbolListRule rule;
  rule.allow_nifty = true;
  FieldErrors errors;
  EXPECT_THAT(ParseSymbolList(Values({"nifty,INFY,NIFTY"}), rule, errors),
              ElementsAre("NIFTY", "INFY"));
  EXPECT_TRUE(errors.empty());
  rule.allow_nifty = false;
  // A stock symbol may be spelled "nifty": it is taken as written.
  EXPECT_THAT(ParseSymbolList(Values({"nifty"}), rule, errors),
              ElementsAre("nifty"));
}

}  // namespace
}  // namespace mdc::domain
