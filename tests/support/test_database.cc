#include "tests/support/test_database.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "storage/migrations.h"

namespace mdc::testing {
namespace {

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "TestDatabase: %s\n", message.c_str());
  std::abort();
}

void ExecOrFail(const std::string& url, const std::string& sql) {
  auto conn = storage::Connection::Open(url);
  if (!conn.ok())
    Fail(absl::StrCat("cannot connect: ", conn.status().ToString()));
  auto result = (*conn)->ExecScript(sql);
  if (!result.ok()) Fail(absl::StrCat(sql, ": ", result.status().ToString()));
}

}  // namespace

std::string WithDatabase(const std::string& url, const std::string& name) {
  // postgres://user:pass@host:port/db?params → replace db.
  const size_t scheme = url.find("://");
  const size_t slash =
      url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  const size_t query = url.find('?', slash == std::string::npos ? 0 : slash);
  std::string base = slash == std::string::npos ? url : url.substr(0, slash);
  std::string params = query == std::string::npos ? "" : url.substr(query);
  return absl::StrCat(base, "/", name, params);
}

TestDatabase::TestDatabase() : TestDatabase("") {}

TestDatabase::TestDatabase(const std::string& last_migration) {
  std::vector<storage::Migration> migrations = storage::EmbeddedMigrations();
  if (!last_migration.empty()) {
    auto last = std::find_if(migrations.begin(), migrations.end(),
                             [&](const storage::Migration& migration) {
                               return last_migration == migration.name;
                             });
    if (last == migrations.end()) {
      Fail(absl::StrCat("no migration named ", last_migration));
    }
    migrations.erase(last + 1, migrations.end());
  }
  const char* admin = std::getenv("MDC_TEST_DATABASE_URL");
  if (admin == nullptr || *admin == '\0') {
    Fail("MDC_TEST_DATABASE_URL is not set; run the tests with `make test`");
  }
  admin_url_ = admin;
  std::random_device random;
  name_ = absl::StrCat("mdc_test_", random(), random());
  ExecOrFail(admin_url_, absl::StrCat("CREATE DATABASE ", name_));
  url_ = WithDatabase(admin_url_, name_);
  pool_ = std::make_unique<storage::ConnectionPool>(url_, 4);
  auto applied = storage::ApplyMigrations(*pool_, migrations);
  if (!applied.ok())
    Fail(absl::StrCat("migrations: ", applied.status().ToString()));
}

TestDatabase::~TestDatabase() {
  pool_.reset();
  ExecOrFail(admin_url_,
             absl::StrCat("DROP DATABASE IF EXISTS ", name_, " WITH (FORCE)"));
}

std::string TestDatabase::Query(const std::string& sql) {
  auto conn = pool_->Acquire();
  if (!conn.ok()) Fail(conn.status().ToString());
  auto result = (*conn)->ExecScript(sql);
  if (!result.ok()) Fail(absl::StrCat(sql, ": ", result.status().ToString()));
  if (result->rows() == 0 || result->IsNull(0, 0)) return "";
  return result->String(0, 0);
}

}  // namespace mdc::testing
