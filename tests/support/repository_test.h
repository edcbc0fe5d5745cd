// A GoogleTest fixture for repository tests: one fresh, migrated database
// per test suite (TestDatabase), the repositories over it for each test, and
// the helpers most such tests need.
#ifndef MDC_TESTS_SUPPORT_REPOSITORY_TEST_H_
#define MDC_TESTS_SUPPORT_REPOSITORY_TEST_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "service/domain/time.h"
#include "service/domain/tokens.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc::testing {

class RepositoryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new TestDatabase(); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  void SetUp() override {
    repos_ = std::make_unique<storage::Repositories>(db_->pool());
  }

  // A new developer named `prefix` and a number unique in the program, with
  // a fresh token; its id (0, with a test failure, when it cannot be made).
  int64_t NewDeveloper(const std::string& prefix) {
    auto created = repos_->developers.Create(
        prefix + std::to_string(++counter_), "developer",
        domain::HashToken(domain::GenerateToken()));
    EXPECT_TRUE(created.ok()) << created.status();
    return created.ok() ? created->id : 0;
  }

  // The instant of an Asia/Kolkata wall-clock time YYYY-MM-DDTHH:MM:SS.
  static absl::Time At(const char* wall_clock) {
    return *domain::ParseInstant(wall_clock, "Asia/Kolkata");
  }

  static inline TestDatabase* db_ = nullptr;
  static inline int counter_ = 0;
  std::unique_ptr<storage::Repositories> repos_;
};

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_REPOSITORY_TEST_H_
