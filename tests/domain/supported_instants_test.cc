// The supported instants [1900-01-01T00:00:00Z, 2200-01-01T00:00:00Z): the
// rule itself, every request that resolves a wall-clock time refusing an
// instant outside it with the field named, and SetTimestamp staying total
// for rows stored outside it.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "domain/as_of.h"
#include "domain/backtest_clock.h"
#include "domain/dashboard_requests.h"
#include "domain/field_errors.h"
#include "domain/observations.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "domain/time_range.h"
#include "google/rpc/error_details.pb.h"
#include "tests/support/field_violations.h"

namespace mdc::domain {
namespace {

using ::mdc::testing::FieldViolations;

constexpr char kRule[] = "must be between 1900-01-01 and 2199-12-31 (UTC)";

absl::Time Utc(int y, int m, int d, int hh = 0, int mm = 0, int ss = 0) {
  return absl::FromCivil(absl::CivilSecond(y, m, d, hh, mm, ss),
                         absl::UTCTimeZone());
}

// Whether `status` is INVALID_ARGUMENT with one violation of the rule,
// under `field`.
::testing::AssertionResult RefusedAs(const absl::Status& status,
                                     const std::string& field) {
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    return ::testing::AssertionFailure() << "not a 400: " << status;
  }
  const auto violations = FieldViolations(status);
  if (violations.size() != 1 || violations[0].first != field ||
      violations[0].second.find(kRule) != 0) {
    return ::testing::AssertionFailure() << "violations: " << status;
  }
  return ::testing::AssertionSuccess();
}

TEST(SupportedInstants, AreTheYears1900To2199InUtc) {
  EXPECT_EQ(FormatInstant(SupportedStart()), "1900-01-01T00:00:00Z");
  EXPECT_TRUE(IsSupportedInstant(SupportedStart()));
  EXPECT_FALSE(IsSupportedInstant(SupportedStart() - absl::Microseconds(1)));
  EXPECT_TRUE(IsSupportedInstant(FarFuture() - absl::Microseconds(1)));
  EXPECT_FALSE(IsSupportedInstant(FarFuture()));
  EXPECT_TRUE(IsSupportedInstant(Utc(2025, 12, 31, 3, 45)));
  EXPECT_FALSE(IsSupportedInstant(absl::InfinitePast()));
  EXPECT_FALSE(IsSupportedInstant(absl::InfiniteFuture()));
}

TEST(SupportedInstants, TheErrorStatesTheRuleAndTheInstantInUtc) {
  EXPECT_TRUE(CheckSupportedInstant(Utc(1900, 1, 1)).ok());
  const absl::Status early = CheckSupportedInstant(Utc(1, 1, 1));
  EXPECT_EQ(early.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(early.message(), std::string(kRule) + "; got 0001-01-01T00:00:00Z");
  EXPECT_EQ(CheckSupportedInstant(Utc(10000, 1, 1, 3)).message(),
            std::string(kRule) + "; got 10000-01-01T03:00:00Z");
}

TEST(SupportedInstants, ZonesArePartOfTheRule) {
  auto civil = ParseWallClock("1900-01-01T00:00:00");
  ASSERT_TRUE(civil.ok());
  // 1900-01-01T00:00 in IST is still 1899 in UTC.
  EXPECT_FALSE(SupportedInstantAt(*civil, ExchangeZone()).ok());
  EXPECT_TRUE(SupportedInstantAt(*civil, absl::UTCTimeZone()).ok());
  auto late = ParseWallClock("2199-12-31T23:00:00");
  ASSERT_TRUE(late.ok());
  EXPECT_TRUE(SupportedInstantAt(*late, ExchangeZone()).ok());
  EXPECT_FALSE(SupportedInstantAt(*late, absl::FixedTimeZone(-4 * 3600)).ok());
  EXPECT_FALSE(ParseInstant("0001-01-01T00:00:00", "UTC").ok());
  EXPECT_FALSE(ParseInstant("9999-12-31T23:59:59", "-14:00").ok());
  EXPECT_TRUE(ParseInstant("2025-12-31T09:15:00", "").ok());
}

// The collector writes, each with its minimal valid body.
v1::ShortlistData Shortlist(const std::string& timestamp,
                            const std::string& zone) {
  v1::ShortlistData data;
  data.set_timestamp(timestamp);
  data.set_timezone(zone);
  data.set_shortlist_type(v1::TOP_GAINERS);
  return data;
}

v1::NiftyData Nifty(const std::string& timestamp, const std::string& zone) {
  v1::NiftyData data;
  data.set_timestamp(timestamp);
  data.set_timezone(zone);
  data.mutable_quote_data()->set_status(v1::FAILURE);
  data.set_day_change_perc(0);
  return data;
}

v1::QuotesData Quotes(const std::string& timestamp, const std::string& zone) {
  v1::QuotesData data;
  data.set_timestamp(timestamp);
  data.set_timezone(zone);
  auto* item = data.add_quotes();
  item->set_nse_symbol("TCS");
  item->mutable_quote_data()->set_status(v1::FAILURE);
  return data;
}

struct WallClockCase {
  std::string timestamp;
  std::string zone;
};

const std::vector<WallClockCase>& OutOfRange() {
  static const auto* cases = new std::vector<WallClockCase>{
      {"0001-01-01T00:00:00", ""},
      {"0001-01-01T00:00:00", "UTC"},
      {"1899-12-31T23:59:59", "UTC"},
      {"1900-01-01T00:00:00", "Asia/Kolkata"},
      {"2200-01-01T00:00:00", "UTC"},
      {"2199-12-31T23:00:00", "-04:00"},
      {"9999-12-31T23:59:59", "UTC"},
      {"9999-12-31T23:59:59", "-14:00"},
      {"9999-12-31T23:59:59", "America/New_York"},
  };
  return *cases;
}

TEST(SupportedInstants, CollectorWritesRefuseInstantsOutsideThem) {
  for (const auto& c : OutOfRange()) {
    SCOPED_TRACE(c.timestamp + " " + c.zone);
    EXPECT_TRUE(
        RefusedAs(ValidateShortlist(Shortlist(c.timestamp, c.zone)).status(),
                  "data.timestamp"));
    EXPECT_TRUE(RefusedAs(ValidateNifty(Nifty(c.timestamp, c.zone)).status(),
                          "data.timestamp"));
    EXPECT_TRUE(RefusedAs(ValidateQuotes(Quotes(c.timestamp, c.zone)).status(),
                          "data.timestamp"));
  }
}

TEST(SupportedInstants, CollectorWritesAcceptBothEnds) {
  auto first = ValidateNifty(Nifty("1900-01-01T00:00:00", "UTC"));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->observed_at, SupportedStart());
  auto last = ValidateQuotes(Quotes("2199-12-31T23:59:59", "UTC"));
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_EQ(last->observed_at, FarFuture() - absl::Seconds(1));
  EXPECT_TRUE(ValidateShortlist(Shortlist("1900-01-01T05:30:00", "")).ok());
}

TEST(SupportedInstants, RunsAndOrdersRefuseInstantsOutsideThem) {
  for (const auto& c : OutOfRange()) {
    SCOPED_TRACE(c.timestamp + " " + c.zone);
    FieldErrors errors;
    EXPECT_FALSE(RequiredWallClock(c.timestamp, ResolveTimeZone(c.zone),
                                   "start_datetime", "a wall-clock time",
                                   errors)
                     .has_value());
    EXPECT_TRUE(RefusedAs(errors.ToStatus(), "start_datetime"));
  }
}

TEST(SupportedInstants, ReadsRefuseDatetimesOutsideThem) {
  for (const auto& c : OutOfRange()) {
    SCOPED_TRACE(c.timestamp + " " + c.zone);
    EXPECT_TRUE(RefusedAs(AsOfWindowFor(c.timestamp, c.zone, BacktestClock(),
                                        absl::Now(), WhenAbsent::kLatestStored)
                              .status(),
                          "datetime"));
    EXPECT_TRUE(RefusedAs(TimeRangeFor(c.timestamp, "", c.zone, BacktestClock(),
                                       absl::Now(), EndIs::kExclusive)
                              .status(),
                          "start_datetime"));
    EXPECT_TRUE(RefusedAs(TimeRangeFor("", c.timestamp, c.zone, BacktestClock(),
                                       absl::Now(), EndIs::kInclusive)
                              .status(),
                          "end_datetime"));
    EXPECT_TRUE(
        RefusedAs(BacktestClock::FromHeaders(c.timestamp, c.zone).status(),
                  "X-Current-Timestamp"));
  }
}

TEST(SetTimestamp, IsExactInsideTheTimestampRange) {
  google::protobuf::Timestamp out;
  const absl::Time t = Utc(1969, 12, 31, 23, 59, 59) + absl::Microseconds(250);
  EXPECT_TRUE(SetTimestamp(t, &out));
  EXPECT_EQ(out.seconds(), -1);
  EXPECT_EQ(out.nanos(), 250000);
  EXPECT_EQ(FromTimestamp(out), t);
  EXPECT_TRUE(SetTimestamp(Utc(1, 1, 1), &out));
  EXPECT_EQ(out.seconds(), kMinTimestampSeconds);
}

TEST(SetTimestamp, ClampsWhatATimestampCannotCarry) {
  google::protobuf::Timestamp out;
  // 0001-01-01T00:00:00 in Asia/Kolkata: still year 0 in UTC.
  EXPECT_FALSE(SetTimestamp(Utc(0, 12, 31, 18, 30), &out));
  EXPECT_EQ(out.seconds(), kMinTimestampSeconds);
  EXPECT_EQ(out.nanos(), 0);
  // 9999-12-31T23:00:00 at -04:00.
  EXPECT_FALSE(SetTimestamp(Utc(10000, 1, 1, 3), &out));
  EXPECT_EQ(out.seconds(), kMaxTimestampSeconds);
  EXPECT_GE(out.nanos(), 0);
  EXPECT_LE(out.nanos(), 999999999);
  EXPECT_FALSE(SetTimestamp(absl::InfiniteFuture(), &out));
  EXPECT_EQ(out.seconds(), kMaxTimestampSeconds);
  EXPECT_FALSE(SetTimestamp(absl::InfinitePast(), &out));
  EXPECT_EQ(out.seconds(), kMinTimestampSeconds);
}

}  // namespace
}  // namespace mdc::domain
