// The read-replica settings of the server configuration: DATABASE_READ_URL
// and its lag bound MDC_REPLICA_MAX_LAG. A bad bound stops start-up with an
// error naming the setting.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "service/config/config.h"
#include "tests/support/config_from.h"

namespace mdc {
namespace {

absl::StatusOr<Config> Load(std::map<std::string, std::string> vars,
                            std::vector<std::string> args = {}) {
  return testing::ConfigFrom(std::move(vars), args);
}

TEST(ReplicaConfig, DefaultsToNoReplicaAndAFiveSecondBound) {
  auto config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->database_read_url, "");
  EXPECT_EQ(config->replica_max_lag, absl::Seconds(5));
}

TEST(ReplicaConfig, ReadsTheEnvironmentAndFlags) {
  auto config = Load({{"DATABASE_READ_URL", "postgres://standby/mdc"},
                      {"MDC_REPLICA_MAX_LAG", "2s"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->database_read_url, "postgres://standby/mdc");
  EXPECT_EQ(config->replica_max_lag, absl::Seconds(2));
  config = Load(
      {{"MDC_REPLICA_MAX_LAG", "2s"}},
      {"--database-read-url=postgres://other/mdc", "--replica-max-lag", "1m"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->database_read_url, "postgres://other/mdc");
  EXPECT_EQ(config->replica_max_lag, absl::Minutes(1));
}

TEST(ReplicaConfig, ABoundOutsideOneSecondToAnHourIsRefusedByName) {
  for (const char* bad : {"0", "500ms", "2h", "5", "soon", ""}) {
    auto config = Load({{"MDC_REPLICA_MAX_LAG", bad}});
    ASSERT_FALSE(config.ok()) << bad;
    EXPECT_NE(config.status().message().find("MDC_REPLICA_MAX_LAG"),
              std::string::npos)
        << config.status();
  }
  for (const char* good : {"1s", "1h", " 10s "}) {
    EXPECT_TRUE(Load({{"MDC_REPLICA_MAX_LAG", good}}).ok()) << good;
  }
}

}  // namespace
}  // namespace mdc
