// PostgreSQL NOTICEs (e.g. "relation ... already exists, skipping" during
// migrations) never reach stderr raw: every Connection routes them to the
// structured log at debug level.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <string>

#include "common/log.h"
#include "storage/pg.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kRaiseNotice[] =
    "DO $$ BEGIN RAISE NOTICE 'mdc notice test'; END $$";

class NoticeLoggerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new testing::TestDatabase(); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  void TearDown() override { log::SetLevel(level_); }

  // What running kRaiseNotice on a fresh Connection writes on stderr.
  static std::string RaiseNotice() {
    auto conn = Connection::Open(db_->url());
    EXPECT_TRUE(conn.ok()) << conn.status();
    if (!conn.ok()) return "";
    ::testing::internal::CaptureStderr();
    auto ran = (*conn)->ExecScript(kRaiseNotice);
    std::string out = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(ran.ok()) << ran.status();
    return out;
  }

  static testing::TestDatabase* db_;
  const log::Level level_ = log::CurrentLevel();
};

testing::TestDatabase* NoticeLoggerTest::db_ = nullptr;

// The control: without the logger, libpq prints the notice raw, and the
// capture sees it.
TEST_F(NoticeLoggerTest, LibpqAloneWouldPrintTheNotice) {
  PGconn* raw = PQconnectdb(db_->url().c_str());
  ASSERT_EQ(PQstatus(raw), CONNECTION_OK) << PQerrorMessage(raw);
  ::testing::internal::CaptureStderr();
  PQclear(PQexec(raw, kRaiseNotice));
  const std::string out = ::testing::internal::GetCapturedStderr();
  PQfinish(raw);
  EXPECT_THAT(out, HasSubstr("NOTICE:  mdc notice test"));
}

TEST_F(NoticeLoggerTest, PrintsNothingAtInfoLevel) {
  log::SetLevel(log::Level::kInfo);
  const std::string out = RaiseNotice();
  EXPECT_EQ(out, "");
  EXPECT_THAT(out, Not(HasSubstr("NOTICE")));
}

TEST_F(NoticeLoggerTest, LogsAStructuredLineAtDebugLevel) {
  log::SetLevel(log::Level::kDebug);
  const std::string out = RaiseNotice();
  EXPECT_THAT(out, Not(HasSubstr("NOTICE:")));
  EXPECT_THAT(out, HasSubstr(R"("level":"debug","msg":"database notice")"));
  EXPECT_THAT(out, HasSubstr(R"("severity":"NOTICE")"));
  EXPECT_THAT(out, HasSubstr(R"("sqlstate":"00000")"));
  EXPECT_THAT(out, HasSubstr(R"("notice":"mdc notice test")"));
}

TEST_F(NoticeLoggerTest, MigrationNoticesAreQuietAtInfoLevel) {
  log::SetLevel(log::Level::kInfo);
  auto conn = Connection::Open(db_->url());
  ASSERT_TRUE(conn.ok()) << conn.status();
  ::testing::internal::CaptureStderr();
  // Already there: PostgreSQL answers with a NOTICE "... skipping".
  auto ran = (*conn)->ExecScript(
      "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY)");
  const std::string out = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(ran.ok()) << ran.status();
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace mdc::storage
