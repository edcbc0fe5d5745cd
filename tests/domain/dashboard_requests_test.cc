// The dashboard's shared parameter checks: what each accepts, and the field
// and description each records when it does not.
#include "domain/dashboard_requests.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "domain/field_errors.h"
#include "domain/time.h"
#include "google/rpc/error_details.pb.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// (field, description) of every violation `errors` holds, in order.
std::vector<std::pair<std::string, std::string>> Violations(
    const FieldErrors& errors) {
  return testing::FieldViolations(errors.ToStatus());
}

std::vector<std::string> Fields(const FieldErrors& errors) {
  return testing::ViolatedFields(errors.ToStatus());
}

TEST(RequiredDate, ParsesATradingDate) {
  FieldErrors errors;
  auto day = RequiredDate("2025-03-03", "date", errors);
  ASSERT_TRUE(day.ok()) << day.status();
  EXPECT_EQ(*day, absl::CivilDay(2025, 3, 3));
  EXPECT_TRUE(errors.empty());
}

TEST(RequiredDate, MissingIsRecordedAndFails) {
  FieldErrors errors;
  EXPECT_FALSE(RequiredDate("", "date", errors).ok());
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"date", "is required: a trading date YYYY-MM-DD"}}));
}

TEST(RequiredDate, MalformedOrImpossibleIsRecordedUnderItsField) {
  for (const char* bad : {"2025-02-30", "03-03-2025", "2025-03-03T10:00:00"}) {
    FieldErrors errors;
    EXPECT_FALSE(RequiredDate(bad, "from", errors).ok()) << bad;
    EXPECT_EQ(Fields(errors), std::vector<std::string>{"from"}) << bad;
  }
}

TEST(CheckSymbolParameter, AcceptsAnNseSymbol) {
  FieldErrors errors;
  CheckSymbolParameter("M&M", "symbol", errors);
  CheckSymbolParameter("BAJAJ-AUTO", "symbol", errors);
  EXPECT_TRUE(errors.empty());
}

TEST(CheckSymbolParameter, MissingIsRequired) {
  FieldErrors errors;
  CheckSymbolParameter("", "nseSymbol", errors);
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"nseSymbol", "is required"}}));
}

TEST(CheckSymbolParameter, ImplausibleIsRecordedOnce) {
  FieldErrors errors;
  CheckSymbolParameter("NOT A SYMBOL", "symbol", errors);
  CheckSymbolParameter(std::string(33, 'A'), "other", errors);
  EXPECT_EQ(Fields(errors), (std::vector<std::string>{"symbol", "other"}));
}

TEST(CheckPercentage, AbsentAndBoundsAreFine) {
  FieldErrors errors;
  CheckPercentage(std::nullopt, "p", 0, 100, errors);
  CheckPercentage(0.0, "p", 0, 100, errors);
  CheckPercentage(100.0, "p", 0, 100, errors);
  CheckPercentage(1e9, "p", 0, kInfinity, errors);
  EXPECT_TRUE(errors.empty());
}

TEST(CheckPercentage, OutOfRangeOrNotFiniteSaysTheRange) {
  FieldErrors errors;
  CheckPercentage(-0.5, "stop", 0, 100, errors);
  CheckPercentage(100.01, "stop", 0, 100, errors);
  CheckPercentage(std::numeric_limits<double>::quiet_NaN(), "stop", 0, 100,
                  errors);
  CheckPercentage(-1.0, "gain", 0, kInfinity, errors);
  CheckPercentage(kInfinity, "gain", 0, kInfinity, errors);
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"stop", "must be a number from 0 to 100"},
                {"stop", "must be a number from 0 to 100"},
                {"stop", "must be a number from 0 to 100"},
                {"gain", "must be a number >= 0"},
                {"gain", "must be a number >= 0"}}));
}

TEST(CheckOutcomePercentages, BothOrNeitherAreFine) {
  FieldErrors errors;
  CheckOutcomePercentages(std::nullopt, std::nullopt, errors);
  CheckOutcomePercentages(250.0, 100.0, errors);
  CheckOutcomePercentages(0.0, 0.0, errors);
  EXPECT_TRUE(errors.empty());
}

TEST(CheckOutcomePercentages, OneAloneNamesTheMissingOne) {
  FieldErrors only_take_profit;
  CheckOutcomePercentages(5.0, std::nullopt, only_take_profit);
  EXPECT_EQ(Fields(only_take_profit),
            std::vector<std::string>{"stopLossPercentage"});
  FieldErrors only_stop_loss;
  CheckOutcomePercentages(std::nullopt, 2.0, only_stop_loss);
  EXPECT_EQ(Fields(only_stop_loss),
            std::vector<std::string>{"takeProfitPercentage"});
}

TEST(CheckOutcomePercentages, RangesOfEach) {
  FieldErrors errors;
  CheckOutcomePercentages(-1.0, 101.0, errors);
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"takeProfitPercentage", "must be a number from 0 to 1000"},
                {"stopLossPercentage", "must be a number from 0 to 100"}}));
}

// A take-profit of 1e306% on a large price made the outcome's targetPrice
// Infinity.
TEST(CheckOutcomePercentages, TakeProfitIsBounded) {
  FieldErrors errors;
  CheckOutcomePercentages(1000.0, 5.0, errors);
  EXPECT_TRUE(errors.empty());
  CheckOutcomePercentages(1000.5, 5.0, errors);
  CheckOutcomePercentages(1e306, 5.0, errors);
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"takeProfitPercentage", "must be a number from 0 to 1000"},
                {"takeProfitPercentage", "must be a number from 0 to 1000"}}));
}

TEST(CheckGainPercentage, FromZeroTo1000) {
  FieldErrors errors;
  CheckGainPercentage(std::nullopt, "g", errors);
  CheckGainPercentage(0.0, "g", errors);
  CheckGainPercentage(1000.0, "g", errors);
  EXPECT_TRUE(errors.empty());
  CheckGainPercentage(-0.1, "g", errors);
  CheckGainPercentage(1e306, "g", errors);
  CheckGainPercentage(kInfinity, "g", errors);
  EXPECT_EQ(Fields(errors), (std::vector<std::string>{"g", "g", "g"}));
}

TEST(RequiredWallClock, ResolvesInTheRequestsZone) {
  FieldErrors errors;
  auto at =
      RequiredWallClock("2025-03-03T09:20:00", ResolveTimeZone("Asia/Kolkata"),
                        "datetime", "a wall-clock time", errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_TRUE(at.has_value());
  EXPECT_EQ(*at, absl::FromCivil(absl::CivilSecond(2025, 3, 3, 3, 50, 0),
                                 absl::UTCTimeZone()));
}

TEST(RequiredWallClock, MissingSaysWhatIsRequired) {
  FieldErrors errors;
  EXPECT_FALSE(RequiredWallClock("", ResolveTimeZone("UTC"), "datetime",
                                 "the order's wall-clock time", errors)
                   .has_value());
  EXPECT_EQ(Violations(errors),
            (std::vector<std::pair<std::string, std::string>>{
                {"datetime",
                 "is required: the order's wall-clock time "
                 "YYYY-MM-DDTHH:MM:SS in `timezone`"}}));
}

TEST(RequiredWallClock, MalformedIsRecordedUnderItsField) {
  FieldErrors errors;
  EXPECT_FALSE(RequiredWallClock("2025-03-03 09:20", ResolveTimeZone("UTC"),
                                 "start_datetime", "a wall-clock time", errors)
                   .has_value());
  EXPECT_EQ(Fields(errors), std::vector<std::string>{"start_datetime"});
}

TEST(RequiredWallClock, ABadZoneGivesNoInstantAndLeavesItsErrorToTheCaller) {
  FieldErrors errors;
  EXPECT_FALSE(RequiredWallClock("2025-03-03T09:20:00",
                                 ResolveTimeZone("Mars/Olympus"), "datetime",
                                 "a wall-clock time", errors)
                   .has_value());
  EXPECT_TRUE(errors.empty());
}

}  // namespace
}  // namespace mdc::domain
