#include "domain/calendar.h"

#include <gtest/gtest.h>

namespace mdc::domain {
namespace {

TEST(ClassifyDay, WeekdaysTradeWeekendsDoNot) {
  EXPECT_TRUE(
      ClassifyDay(absl::CivilDay(2025, 11, 24), std::nullopt).is_trading_day);
  const DayStatus saturday =
      ClassifyDay(absl::CivilDay(2025, 11, 22), std::nullopt);
  EXPECT_FALSE(saturday.is_trading_day);
  EXPECT_FALSE(saturday.is_holiday);
}

TEST(ClassifyDay, HolidayClosesAWeekday) {
  const CalendarEntry republic{
      absl::CivilDay(2025, 1, 26), "Republic Day", {}, {}};
  const DayStatus status = ClassifyDay(republic.date, republic);
  EXPECT_TRUE(status.is_holiday);
  EXPECT_FALSE(status.is_trading_day);
  EXPECT_EQ(status.name, "Republic Day");
}

TEST(ClassifyDay, SpecialSessionOpensAWeekend) {
  const CalendarEntry muhurat{absl::CivilDay(2025, 11, 22), "Muhurat",
                              absl::CivilMinute(1970, 1, 1, 18, 0),
                              absl::CivilMinute(1970, 1, 1, 19, 15)};
  const DayStatus status = ClassifyDay(muhurat.date, muhurat);
  EXPECT_FALSE(status.is_holiday);
  EXPECT_TRUE(status.is_trading_day);
}

google::protobuf::RepeatedPtrField<v1::Holiday> Holidays(
    std::initializer_list<std::pair<const char*, const char*>> items) {
  google::protobuf::RepeatedPtrField<v1::Holiday> out;
  for (const auto& [date, name] : items) {
    auto* h = out.Add();
    h->set_date(date);
    h->set_name(name);
  }
  return out;
}

google::protobuf::RepeatedPtrField<std::string> Dates(
    std::initializer_list<const char*> items) {
  google::protobuf::RepeatedPtrField<std::string> out;
  for (const char* d : items) *out.Add() = d;
  return out;
}

TEST(ValidateCalendarEntries, AcceptsBothForms) {
  auto entries = ValidateCalendarEntries(Holidays({{"2025-01-26", "Republic"}}),
                                         Dates({"2025-03-14"}));
  ASSERT_TRUE(entries.ok()) << entries.status();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[1].date, absl::CivilDay(2025, 3, 14));
}

TEST(ValidateCalendarEntries, DuplicateInRequestNamesTheField) {
  auto entries = ValidateCalendarEntries(Holidays({{"2025-01-26", "A"}}),
                                         Dates({"2025-01-26"}));
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(entries.status().message().find("dates[0]"), std::string::npos);
}

TEST(ValidateCalendarEntries, RejectsEmptyBadDatesAndBadSessions) {
  EXPECT_FALSE(ValidateCalendarEntries({}, {}).ok());
  EXPECT_FALSE(ValidateCalendarEntries({}, Dates({"2025-02-30"})).ok());
  auto holidays = Holidays({{"2025-11-22", "Muhurat"}});
  holidays[0].set_session_open("19:15");
  holidays[0].set_session_close("18:00");
  auto bad = ValidateCalendarEntries(holidays, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("holidays[0].sessionClose"),
            std::string::npos);
  holidays[0].set_session_open("18:00");
  holidays[0].set_session_close("");
  EXPECT_FALSE(ValidateCalendarEntries(holidays, {}).ok());
  holidays[0].set_session_close("19:15");
  auto good = ValidateCalendarEntries(holidays, {});
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_TRUE((*good)[0].special_session());
}

TEST(ValidateCalendarEntries, RefusesControlCharactersAndLongNames) {
  for (const std::string& name :
       {std::string("a\0b", 3), std::string("tab\there"),
        std::string("del\x7f"), std::string("next line \xc2\x85"),
        std::string("\xe2\x80\xae"
                    "evil")}) {
    google::protobuf::RepeatedPtrField<v1::Holiday> holidays;
    auto* h = holidays.Add();
    h->set_date("2025-01-26");
    h->set_name(name);
    auto entries = ValidateCalendarEntries(holidays, {});
    ASSERT_FALSE(entries.ok()) << name.size();
    EXPECT_NE(entries.status().message().find(
                  "holidays[0].name: must not contain control or format "
                  "characters (Unicode Cc, Cf); found U+"),
              std::string::npos)
        << entries.status();
  }
  auto long_name = ValidateCalendarEntries(
      Holidays({{"2025-01-26", std::string(101, 'x').c_str()}}), {});
  ASSERT_FALSE(long_name.ok());
  EXPECT_NE(long_name.status().message().find("at most 100 bytes"),
            std::string::npos);
  EXPECT_TRUE(ValidateCalendarEntries(
                  Holidays({{"2025-01-26", "Republic Day — गणतंत्र दिवस"}}), {})
                  .ok());
}

// A holiday outside the years List Holidays takes could never be listed.
TEST(ValidateCalendarEntries, DatesMustBeInTheCalendarYears) {
  auto entries = ValidateCalendarEntries(
      Holidays({{"0001-01-01", "A"}, {"1899-12-31", "B"}}),
      Dates({"9999-12-31", "2201-01-01"}));
  ASSERT_FALSE(entries.ok());
  for (const char* field : {"holidays[0].date: must be a date in the years "
                            "1900-2200 (those the calendar lists); got "
                            "0001-01-01",
                            "holidays[1].date", "dates[0]", "dates[1]"}) {
    EXPECT_NE(entries.status().message().find(field), std::string::npos)
        << field << ": " << entries.status();
  }
  EXPECT_TRUE(ValidateCalendarEntries(Holidays({{"1900-01-01", "First"}}),
                                      Dates({"2200-12-31"}))
                  .ok());
}

// Deleting takes any date: a holiday stored before the years were enforced
// can still be removed.
TEST(ValidateDateList, TakesAnyYear) {
  EXPECT_TRUE(ValidateDateList(Dates({"0001-01-01", "9999-12-31"})).ok());
}

TEST(ValidateDateList, NeedsAtLeastOneDistinctValidDate) {
  EXPECT_FALSE(ValidateDateList({}).ok());
  EXPECT_FALSE(ValidateDateList(Dates({"2025-01-26", "2025-01-26"})).ok());
  EXPECT_FALSE(ValidateDateList(Dates({"nope"})).ok());
  EXPECT_EQ(ValidateDateList(Dates({"2025-01-26"}))->size(), 1u);
}

}  // namespace
}  // namespace mdc::domain
