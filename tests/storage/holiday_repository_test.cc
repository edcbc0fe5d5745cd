#include "storage/holiday_repository.h"

#include <gtest/gtest.h>

#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

class HolidayRepositoryTest : public ::testing::Test {
 protected:
  testing::TestDatabase db_;
  HolidayRepository holidays_{db_.pool()};
};

domain::CalendarEntry Entry(int y, int m, int d, const char* name) {
  return {absl::CivilDay(y, m, d), name, {}, {}};
}

TEST_F(HolidayRepositoryTest, CreateIsAllOrNothing) {
  ASSERT_TRUE(holidays_.CreateAll({Entry(2025, 1, 26, "Republic Day")}).ok());
  const absl::Status again = holidays_.CreateAll(
      {Entry(2025, 3, 14, "Holi"), Entry(2025, 1, 26, "Republic Day")});
  EXPECT_EQ(again.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_NE(again.message().find("2025-01-26"), std::string::npos);
  EXPECT_EQ(db_.Query("SELECT count(*) FROM holidays"), "1");
}

TEST_F(HolidayRepositoryTest, ListFindAndDeleteRoundTrip) {
  domain::CalendarEntry muhurat = Entry(2025, 10, 21, "Muhurat");
  muhurat.session_open = absl::CivilMinute(1970, 1, 1, 13, 45);
  muhurat.session_close = absl::CivilMinute(1970, 1, 1, 14, 45);
  ASSERT_TRUE(holidays_
                  .CreateAll({Entry(2025, 1, 26, "Republic Day"), muhurat,
                              Entry(2026, 1, 26, "Republic Day")})
                  .ok());
  auto year = holidays_.ListYear(2025);
  ASSERT_TRUE(year.ok()) << year.status();
  ASSERT_EQ(year->size(), 2u);
  EXPECT_EQ((*year)[1].session_open, absl::CivilMinute(1970, 1, 1, 13, 45));
  EXPECT_EQ((*year)[1].session_close, absl::CivilMinute(1970, 1, 1, 14, 45));
  auto found = holidays_.Find(absl::CivilDay(2025, 1, 26));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->name, "Republic Day");
  EXPECT_FALSE((*found)->special_session());
  auto deleted = holidays_.Delete({absl::CivilDay(2026, 1, 26),
                                   absl::CivilDay(2025, 1, 26),
                                   absl::CivilDay(2030, 1, 1)});
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(*deleted,
            (std::vector<absl::CivilDay>{absl::CivilDay(2025, 1, 26),
                                         absl::CivilDay(2026, 1, 26)}));
  EXPECT_EQ(db_.Query("SELECT count(*) FROM holidays"), "1");
}

}  // namespace
}  // namespace mdc::storage
