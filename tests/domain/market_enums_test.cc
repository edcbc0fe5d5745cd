// The shortlist parameters: both spellings of each value, the default scope,
// and errors named after the parameter that carries them.
#include "domain/market_enums.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace mdc::domain {
namespace {

TEST(ParseShortlistKind, AcceptsBothSpellingsAndDefaultsTheScope) {
  FieldErrors errors;
  ShortlistKind kind = ParseShortlistKind("top-gainers", "", errors);
  EXPECT_TRUE(errors.empty()) << errors.ToStatus();
  EXPECT_EQ(kind.type, v1::TOP_GAINERS);
  EXPECT_EQ(kind.scope, v1::TOP_5);

  kind = ParseShortlistKind("VOLUME_SHOCKERS", "full", errors);
  EXPECT_TRUE(errors.empty()) << errors.ToStatus();
  EXPECT_EQ(kind.type, v1::VOLUME_SHOCKERS);
  EXPECT_EQ(kind.scope, v1::FULL);
}

TEST(ParseShortlistKind, NamesEachBadParameter) {
  FieldErrors type_only;
  ParseShortlistKind("", "TOP_5", type_only);
  EXPECT_THAT(std::string(type_only.ToStatus().message()),
              ::testing::StartsWith("type: "));
  EXPECT_THAT(std::string(type_only.ToStatus().message()),
              ::testing::Not(::testing::HasSubstr("scope: ")));

  FieldErrors both;
  ParseShortlistKind("losers", "top-50", both);
  EXPECT_EQ(both.ToStatus().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(both.ToStatus().message()),
              ::testing::AllOf(::testing::HasSubstr("type: "),
                               ::testing::HasSubstr("; scope: ")));
}

}  // namespace
}  // namespace mdc::domain
