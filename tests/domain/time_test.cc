#include "domain/time.h"

#include <gtest/gtest.h>

#include <string>

namespace mdc::domain {
namespace {

absl::Time Utc(int y, int mo, int d, int h, int mi, int s) {
  return absl::FromCivil(absl::CivilSecond(y, mo, d, h, mi, s),
                         absl::UTCTimeZone());
}

TEST(ParseInstant, KolkataWallClockIsStoredInUtc) {
  auto t = ParseInstant("2025-12-31T09:15:00", "Asia/Kolkata");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(FormatInstant(*t), "2025-12-31T03:45:00Z");
}

TEST(ParseInstant, MissingZoneMeansKolkata) {
  auto t = ParseInstant("2025-12-31T09:15:00", "");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, Utc(2025, 12, 31, 3, 45, 0));
}

class ZoneSpellings : public ::testing::TestWithParam<std::string> {};

TEST_P(ZoneSpellings, UtcSpellingsAllResolveToUtc) {
  auto t = ParseInstant("2025-06-01T10:00:00", GetParam());
  ASSERT_TRUE(t.ok()) << GetParam() << ": " << t.status();
  EXPECT_EQ(*t, Utc(2025, 6, 1, 10, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(All, ZoneSpellings,
                         ::testing::Values("UTC", "utc", "Etc/UTC", "etc/UTC",
                                           "ETC/utc", "+00:00", "-00:00"));

TEST(ParseInstant, KolkataInAnyCase) {
  for (const char* zone : {"Asia/Kolkata", "asia/kolkata", "ASIA/KOLKATA"}) {
    auto t = ParseInstant("2025-06-01T10:00:00", zone);
    ASSERT_TRUE(t.ok()) << zone << ": " << t.status();
    EXPECT_EQ(*t, Utc(2025, 6, 1, 4, 30, 0)) << zone;
  }
}

TEST(ParseInstant, FixedOffsets) {
  EXPECT_EQ(*ParseInstant("2025-06-01T10:00:00", "+05:30"),
            Utc(2025, 6, 1, 4, 30, 0));
  EXPECT_EQ(*ParseInstant("2025-06-01T10:00:00", "-04:00"),
            Utc(2025, 6, 1, 14, 0, 0));
}

TEST(ParseInstant, IstHasNoDaylightSaving) {
  // The same wall clock in January and July is the same UTC offset.
  EXPECT_EQ(*ParseInstant("2025-01-15T12:00:00", "Asia/Kolkata"),
            Utc(2025, 1, 15, 6, 30, 0));
  EXPECT_EQ(*ParseInstant("2025-07-15T12:00:00", "Asia/Kolkata"),
            Utc(2025, 7, 15, 6, 30, 0));
}

TEST(ParseInstant, NewYorkObservesDaylightSaving) {
  EXPECT_EQ(*ParseInstant("2025-01-15T12:00:00", "America/New_York"),
            Utc(2025, 1, 15, 17, 0, 0));
  EXPECT_EQ(*ParseInstant("2025-07-15T12:00:00", "america/new_york"),
            Utc(2025, 7, 15, 16, 0, 0));
}

class BadZones : public ::testing::TestWithParam<std::string> {};

TEST_P(BadZones, AreInvalidArgument) {
  auto t = ParseInstant("2025-06-01T10:00:00", GetParam());
  ASSERT_FALSE(t.ok()) << GetParam();
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("time zone"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(All, BadZones,
                         ::testing::Values("Mars/Olympus", "Asia/",
                                           "/etc/passwd", "../../etc/passwd",
                                           "+5:30", "+05:60", "+15:00", "05:30",
                                           "Asia Kolkata", "zoneinfo.zi"));

class BadWallClocks : public ::testing::TestWithParam<std::string> {};

TEST_P(BadWallClocks, AreInvalidArgumentNeverRolledOver) {
  auto t = ParseWallClock(GetParam());
  ASSERT_FALSE(t.ok()) << GetParam() << " parsed as " << *t;
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(
    All, BadWallClocks,
    ::testing::Values("2025-02-30T10:00:00", "2025-02-29T10:00:00",
                      "2025-12-31T24:00:00", "2025-12-31T23:60:00",
                      "2025-12-31T23:59:60", "2025-13-45T10:00:00",
                      "2025-00-10T10:00:00", "2025-01-00T10:00:00", "",
                      "invalid-date", "2025-12-31", "2025-12-31 09:15:00",
                      "2025-12-31T09:15", "2025-12-31T09:15:00Z",
                      "2025-12-31T09:15:00+05:30", "2025-12-31T09:15:00.5",
                      "+025-12-31T09:15:00", "2025-1-31T09:15:00",
                      "2025-12-31T9:15:00", "２025-12-31T09:15:00"));

TEST(ParseWallClock, AcceptsLeapDay) {
  auto t = ParseWallClock("2024-02-29T23:59:59");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(*t, absl::CivilSecond(2024, 2, 29, 23, 59, 59));
}

TEST(ParseDate, ValidAndInvalid) {
  EXPECT_EQ(*ParseDate("2025-12-31"), absl::CivilDay(2025, 12, 31));
  for (const char* bad : {"2025-13-45", "2025-02-30", "2025-12-31T00:00:00",
                          "20251231", "", "2025/12/31", "abc"}) {
    EXPECT_FALSE(ParseDate(bad).ok()) << bad;
  }
}

TEST(ErrorMessages, EchoAtMostAShortQuote) {
  const std::string huge(10000, 'x');
  auto t = ParseWallClock(huge);
  ASSERT_FALSE(t.ok());
  EXPECT_LT(t.status().message().size(), 200u);
}

TEST(TradingDay, IsTheKolkataCalendarDate) {
  // 2025-12-30T20:00:00Z is 01:30 on the 31st in Kolkata.
  EXPECT_EQ(TradingDay(Utc(2025, 12, 30, 20, 0, 0)),
            absl::CivilDay(2025, 12, 31));
  EXPECT_EQ(TradingDay(Utc(2025, 12, 30, 18, 29, 59)),
            absl::CivilDay(2025, 12, 30));
}

TEST(Session, OpensAt0915AndClosesAt1530Ist) {
  const absl::CivilDay day(2025, 12, 31);
  EXPECT_EQ(FormatInstant(SessionOpen(day)), "2025-12-31T03:45:00Z");
  EXPECT_EQ(FormatInstant(SessionClose(day)), "2025-12-31T10:00:00Z");
  EXPECT_EQ(FormatInstant(DayStart(day)), "2025-12-30T18:30:00Z");
}

TEST(IsWeekend, SaturdayAndSunday) {
  EXPECT_TRUE(IsWeekend(absl::CivilDay(2025, 11, 22)));   // Saturday
  EXPECT_TRUE(IsWeekend(absl::CivilDay(2025, 11, 23)));   // Sunday
  EXPECT_FALSE(IsWeekend(absl::CivilDay(2025, 11, 24)));  // Monday
}

}  // namespace
}  // namespace mdc::domain
