// `mdc-server migrate` (service/admin_cli): applies the migrations a
// database lacks and exits, as the Helm chart's hook Job runs it once per
// release; refuses bad usage with exit code 2 and reports an unreachable
// database with exit code 1.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "service/admin_cli/admin_cli.h"
#include "storage/migrations.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

std::string ReadAll(std::FILE* file) {
  std::rewind(file);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
    text.append(buffer, n);
  }
  std::fclose(file);
  return text;
}

// Runs `mdc-server <args>` in-process with `env` as the environment.
Outcome RunCommand(const std::vector<std::string>& args,
                   std::map<std::string, std::string> env) {
  std::FILE* out = std::tmpfile();
  std::FILE* err = std::tmpfile();
  const int code = RunAdminCommand(
      args,
      [&env](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      out, err);
  return {code, ReadAll(out), ReadAll(err)};
}

TEST(MigrateCommand, IsAnAdminCommand) {
  EXPECT_TRUE(IsAdminCommand("migrate"));
  EXPECT_NE(std::string(AdminCommandUsage()).find("mdc-server migrate"),
            std::string::npos);
}

TEST(MigrateCommand, AppliesWhatAnOlderReleaseLackedThenNothing) {
  const auto& all = storage::EmbeddedMigrations();
  ASSERT_GE(all.size(), 2u);
  const std::string older = all[all.size() - 2].name;
  testing::TestDatabase db(older);
  const std::string count_sql = "SELECT count(*) FROM schema_migrations";
  ASSERT_EQ(db.Query(count_sql), std::to_string(all.size() - 1));

  Outcome first = RunCommand({"migrate"}, {{"DATABASE_URL", db.url()}});
  EXPECT_EQ(first.code, 0) << first.err;
  EXPECT_EQ(first.out, "");
  EXPECT_NE(first.err.find(absl::StrCat("applied 1 of ", all.size(),
                                        " migrations: ", all.back().name)),
            std::string::npos)
      << first.err;
  EXPECT_EQ(db.Query(count_sql), std::to_string(all.size()));

  // The flag wins over DATABASE_URL, which here names no database at all.
  Outcome again =
      RunCommand({"migrate", "--database-url", db.url()},
                 {{"DATABASE_URL", "postgresql://127.0.0.1:1/none"}});
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("schema up to date"), std::string::npos)
      << again.err;
  EXPECT_EQ(db.Query(count_sql), std::to_string(all.size()));
}

TEST(MigrateCommand, RefusesBadUsageWithCode2) {
  EXPECT_EQ(RunCommand({"migrate"}, {}).code, 2);  // no database named
  Outcome unknown =
      RunCommand({"migrate", "--username", "x"},
                 {{"DATABASE_URL", "postgresql://127.0.0.1:1/none"}});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown flag --username"), std::string::npos);
  for (const char* wait : {"-1", "3601", "soon"}) {
    Outcome bad =
        RunCommand({"migrate", absl::StrCat("--db-wait-seconds=", wait)},
                   {{"DATABASE_URL", "postgresql://127.0.0.1:1/none"}});
    EXPECT_EQ(bad.code, 2) << wait;
    EXPECT_NE(bad.err.find("--db-wait-seconds must be"), std::string::npos)
        << bad.err;
  }
  Outcome bad_env =
      RunCommand({"migrate"}, {{"DATABASE_URL", "postgresql://x/y"},
                               {"MDC_DB_WAIT_SECONDS", "forever"}});
  EXPECT_EQ(bad_env.code, 2);
  EXPECT_NE(bad_env.err.find("MDC_DB_WAIT_SECONDS must be"), std::string::npos)
      << bad_env.err;
}

TEST(MigrateCommand, AnUnreachableDatabaseFailsWithCode1) {
  // Port 1 on loopback: nothing listens; waiting 0 s tries once.
  Outcome down = RunCommand(
      {"migrate", "--db-wait-seconds=0"},
      {{"DATABASE_URL", "postgresql://mdc@127.0.0.1:1/mdc?connect_timeout=2"}});
  EXPECT_EQ(down.code, 1);
  EXPECT_NE(down.err.find("migrate failed after waiting 0 s: database "
                          "unreachable"),
            std::string::npos)
      << down.err;
}

}  // namespace
}  // namespace mdc
