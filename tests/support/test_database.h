// A fresh, migrated PostgreSQL database per test suite, created from the
// superuser URL in MDC_TEST_DATABASE_URL (scripts/test.sh starts a private
// cluster and sets it) and dropped afterwards. A missing variable fails the
// test loudly: these tests never pass without a real database.
#ifndef MDC_TESTS_SUPPORT_TEST_DATABASE_H_
#define MDC_TESTS_SUPPORT_TEST_DATABASE_H_

#include <memory>
#include <string>

#include "storage/pool.h"

namespace mdc::testing {

class TestDatabase {
 public:
  // Creates database `mdc_test_<random>` and applies every migration.
  // Aborts the test program with a message when that is impossible.
  TestDatabase();
  // The same, but stops after the migration named `last_migration` (e.g.
  // "0009_commit_horizon.sql"): a database as an older release left it, for
  // tests of the migrations after it (storage::ApplyMigrations). Aborts
  // when no migration has that name.
  explicit TestDatabase(const std::string& last_migration);
  ~TestDatabase();

  const std::string& url() const { return url_; }
  storage::ConnectionPool& pool() { return *pool_; }

  // Runs SQL and returns the first column of the first row as text ("" when
  // there is none): for tests that check what is stored.
  std::string Query(const std::string& sql);

 private:
  std::string admin_url_;
  std::string name_;
  std::string url_;
  std::unique_ptr<storage::ConnectionPool> pool_;
};

// The URL of database `name` on the server `url` points at.
std::string WithDatabase(const std::string& url, const std::string& name);

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_TEST_DATABASE_H_
