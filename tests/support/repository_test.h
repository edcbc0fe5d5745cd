// A GoogleTest fixture for repository tests: one fresh, migrated database
// per test suite (TestDatabase), the repositories over it for each test, and
// the helpers most such tests need.
#ifndef MDC_TESTS_SUPPORT_REPOSITORY_TEST_H_
#define MDC_TESTS_SUPPORT_REPOSITORY_TEST_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "domain/time.h"
#include "domain/tokens.h"
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
  // `token_hash`, when given, receives its token's hash (what the collector
  // writes take to name their writer).
  int64_t NewDeveloper(const std::string& prefix,
                       std::string* token_hash = nullptr) {
    const std::string hash = domain::HashToken(domain::GenerateToken());
    auto created = repos_->developers.Create(
        prefix + std::to_string(++counter_), "developer", hash);
    EXPECT_TRUE(created.ok()) << created.status();
    if (token_hash != nullptr) *token_hash = hash;
    return created.ok() ? created->id : 0;
  }

  using Written = absl::StatusOr<std::optional<storage::DeveloperRecord>>;

  // Runs a collector write (asynchronous: `write` answers through a
  // callback) as the holder of `token_hash` and waits for its answer.
  template <typename Repository, typename Value>
  static Written Write(Repository& repository,
                       void (Repository::*write)(const Value&,
                                                 const std::string&,
                                                 storage::DeveloperCallback),
                       const Value& value, const std::string& token_hash) {
    absl::Notification answered;
    Written written = absl::UnknownError("no answer");
    (repository.*write)(value, token_hash, [&](Written answer) {
      written = std::move(answer);
      answered.Notify();
    });
    answered.WaitForNotification();
    return written;
  }

  // Success for a collector write that stored its data as the developer
  // `writer_id`.
  static ::testing::AssertionResult WrittenBy(const Written& written,
                                              int64_t writer_id) {
    if (!written.ok()) {
      return ::testing::AssertionFailure() << written.status();
    }
    if (!written->has_value()) {
      return ::testing::AssertionFailure() << "no writer: nothing written";
    }
    if ((*written)->id != writer_id) {
      return ::testing::AssertionFailure()
             << "written by " << (*written)->id << ", not " << writer_id;
    }
    return ::testing::AssertionSuccess();
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
