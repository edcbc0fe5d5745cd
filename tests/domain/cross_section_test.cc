#include "domain/cross_section.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domain/time.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::testing::ElementsAre;

const absl::Time kNow = DayStart(absl::CivilDay(2035, 4, 3)) + absl::Hours(6);

TEST(CrossSection, SymbolsAsOfAnInstantOfItsTradingDay) {
  v1::GetQuotesRequest request;
  request.add_symbols("INFY,nifty");
  request.set_datetime("2035-04-03T12:00:00");
  auto parsed = ParseCrossSection(request, BacktestClock(), kNow);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->symbols, ElementsAre("INFY", "NIFTY"));
  EXPECT_EQ(parsed->window.not_before, DayStart(absl::CivilDay(2035, 4, 3)));
  EXPECT_EQ(FormatInstant(parsed->window.at), "2035-04-03T06:30:00Z");
}

TEST(CrossSection, EverySymbolIsPaged) {
  v1::GetQuotesRequest request;
  request.set_page_size(2);
  request.set_page_token(EncodeSymbolPageToken("M&M"));
  auto parsed = ParseCrossSection(request, BacktestClock(), kNow);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->page_size, 2);
  EXPECT_EQ(parsed->after, "M&M");
  EXPECT_EQ(parsed->window.at, kNow);  // no datetime: now
  v1::GetQuotesRequest first;
  auto defaults = ParseCrossSection(first, BacktestClock(), kNow);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->page_size, kMaxCrossSectionSymbols);
  EXPECT_FALSE(defaults->after.has_value());
}

TEST(CrossSection, RefusesTokensItDidNotMakeAndTokensWithSymbols) {
  for (const char* token : {"abc", "czE6", "dDE6MTIz"}) {
    v1::GetQuotesRequest request;
    request.set_page_token(token);
    EXPECT_THAT(testing::ViolatedFields(
                    ParseCrossSection(request, BacktestClock(), kNow).status()),
                ElementsAre("pageToken"))
        << token;
  }
  v1::GetQuotesRequest both;
  both.add_symbols("INFY");
  both.set_page_token(EncodeSymbolPageToken("INFY"));
  both.set_page_size(-1);
  EXPECT_THAT(testing::ViolatedFields(
                  ParseCrossSection(both, BacktestClock(), kNow).status()),
              ElementsAre("pageSize", "pageToken"));
}

TEST(CrossSection, TheBacktestClockForbidsTheFuture) {
  v1::GetQuotesRequest request;
  request.add_symbols("INFY");
  request.set_datetime("2035-04-03T12:00:00");
  auto parsed = ParseCrossSection(request, BacktestClock(kNow), kNow);
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace mdc::domain
