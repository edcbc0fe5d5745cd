// The "one row more" page read every list uses to know whether a next page
// exists, and the parsing of a timeline's page parameters.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domain/paging.h"

namespace mdc::domain {
namespace {

TEST(PageReadSize, AsksForOneRowMoreThanThePage) {
  EXPECT_EQ(PageReadSize(1), 2);
  EXPECT_EQ(PageReadSize(kDefaultPageSize), 101);
  EXPECT_EQ(PageReadSize(kMaxPageSize), 1001);
}

TEST(TrimToPage, AShortReadIsTheLastPage) {
  std::vector<int> rows = {1, 2, 3};
  EXPECT_FALSE(TrimToPage(rows, 5));
  EXPECT_EQ(rows, (std::vector<int>{1, 2, 3}));
}

TEST(TrimToPage, AReadOfExactlyThePageIsTheLastPage) {
  std::vector<int> rows = {1, 2, 3};
  EXPECT_FALSE(TrimToPage(rows, 3));
  EXPECT_EQ(rows, (std::vector<int>{1, 2, 3}));
}

TEST(TrimToPage, TheExtraRowMeansAnotherPageAndIsDropped) {
  std::vector<std::string> rows = {"a", "b", "c", "d"};
  EXPECT_TRUE(TrimToPage(rows, 3));
  EXPECT_EQ(rows, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(TrimToPage, AnEmptyReadIsTheLastPage) {
  std::vector<int> rows;
  EXPECT_FALSE(TrimToPage(rows, 1));
  EXPECT_TRUE(rows.empty());
}

// A row type without a default constructor, like a record read by a
// repository may be.
struct Row {
  explicit Row(int id) : id(id) {}
  int id;
};

TEST(TrimToPage, NeedsNoDefaultConstructibleRows) {
  std::vector<Row> rows;
  for (int id = 1; id <= 3; ++id) rows.emplace_back(id);
  EXPECT_TRUE(TrimToPage(rows, 2));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows.back().id, 2);
}

TEST(ParseTimelinePage, DefaultsForAnAbsentSizeAndToken) {
  FieldErrors errors;
  const TimelinePage page = ParseTimelinePage(0, "", errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(page.size, kDefaultPageSize);
  EXPECT_FALSE(page.after.has_value());
}

TEST(ParseTimelinePage, ResumesAfterTheTokensInstant) {
  FieldErrors errors;
  const absl::Time last = absl::FromUnixMicros(1741000000123456);
  const TimelinePage page =
      ParseTimelinePage(2000, EncodePageToken(last), errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(page.size, kMaxPageSize);
  ASSERT_TRUE(page.after.has_value());
  EXPECT_EQ(*page.after, last);
}

TEST(ParseTimelinePage, RecordsEachBadParameterUnderItsName) {
  FieldErrors errors;
  const TimelinePage page = ParseTimelinePage(-1, "not-a-token", errors);
  EXPECT_EQ(page.size, kDefaultPageSize);
  EXPECT_FALSE(page.after.has_value());
  const absl::Status status = errors.ToStatus();
  EXPECT_NE(status.message().find("pageSize"), std::string::npos) << status;
  EXPECT_NE(status.message().find("pageToken"), std::string::npos) << status;
}

}  // namespace
}  // namespace mdc::domain
