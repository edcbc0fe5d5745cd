// The limit settings of the server configuration: the per-developer rate
// limits (MDC_RATE_LIMIT_*) and the database statement timeout
// (MDC_STATEMENT_TIMEOUT). A bad value stops start-up with an error naming
// the setting.
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

TEST(LimitsConfig, DefaultsToNoRateLimitAndA25SecondStatementTimeout) {
  auto config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->rate_limit_reads, 0);
  EXPECT_EQ(config->rate_limit_reads_burst, 0);
  EXPECT_EQ(config->rate_limit_writes, 0);
  EXPECT_EQ(config->rate_limit_writes_burst, 0);
  EXPECT_EQ(config->statement_timeout, absl::Seconds(25));
}

TEST(LimitsConfig, ReadsTheEnvironment) {
  auto config = Load({{"MDC_RATE_LIMIT_READS", "50"},
                      {"MDC_RATE_LIMIT_READS_BURST", "100"},
                      {"MDC_RATE_LIMIT_WRITES", "0.5"},
                      {"MDC_RATE_LIMIT_WRITES_BURST", "3"},
                      {"MDC_STATEMENT_TIMEOUT", "1500ms"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->rate_limit_reads, 50);
  EXPECT_EQ(config->rate_limit_reads_burst, 100);
  EXPECT_EQ(config->rate_limit_writes, 0.5);
  EXPECT_EQ(config->rate_limit_writes_burst, 3);
  EXPECT_EQ(config->statement_timeout, absl::Milliseconds(1500));
}

TEST(LimitsConfig, FlagsWinAndZeroTurnsOff) {
  auto config =
      Load({{"MDC_RATE_LIMIT_WRITES", "10"}, {"MDC_STATEMENT_TIMEOUT", "10s"}},
           {"--rate-limit-writes=0", "--statement-timeout=0",
            "--rate-limit-reads", "7"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->rate_limit_writes, 0);
  EXPECT_EQ(config->rate_limit_reads, 7);
  EXPECT_EQ(config->statement_timeout, absl::ZeroDuration());
}

TEST(LimitsConfig, AcceptsTheBoundsOfEachRange) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"MDC_RATE_LIMIT_READS", "1000000"},
           {"MDC_RATE_LIMIT_WRITES", "0.001"},
           {"MDC_RATE_LIMIT_READS_BURST", "1000000"},
           {"MDC_RATE_LIMIT_WRITES_BURST", "0"},
           {"MDC_STATEMENT_TIMEOUT", "100ms"},
           {"MDC_STATEMENT_TIMEOUT", "24h"},
           {"MDC_STATEMENT_TIMEOUT", "1m30s"}}) {
    auto config = Load({{name, value}});
    EXPECT_TRUE(config.ok()) << name << "=" << value << ": " << config.status();
  }
}

TEST(LimitsConfig, RefusesBadValuesNamingTheSetting) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"MDC_RATE_LIMIT_READS", "-1"},
           {"MDC_RATE_LIMIT_READS", "fast"},
           {"MDC_RATE_LIMIT_READS", ""},
           {"MDC_RATE_LIMIT_READS", "nan"},
           {"MDC_RATE_LIMIT_WRITES", "inf"},
           {"MDC_RATE_LIMIT_WRITES", "1000001"},
           {"MDC_RATE_LIMIT_READS_BURST", "-1"},
           {"MDC_RATE_LIMIT_READS_BURST", "2.5"},
           {"MDC_RATE_LIMIT_WRITES_BURST", "1000001"},
           {"MDC_STATEMENT_TIMEOUT", "25"},  // no unit
           {"MDC_STATEMENT_TIMEOUT", "99ms"},
           {"MDC_STATEMENT_TIMEOUT", "25h"},
           {"MDC_STATEMENT_TIMEOUT", "-1s"},
           {"MDC_STATEMENT_TIMEOUT", "soon"}}) {
    auto config = Load({{name, value}});
    ASSERT_FALSE(config.ok()) << name << "=" << value;
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(name), std::string::npos)
        << config.status();
  }
}

TEST(LimitsConfig, ABadFlagIsNamedToo) {
  auto config = Load({}, {"--statement-timeout=forever"});
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("--statement-timeout"),
            std::string::npos)
      << config.status();
}

TEST(LimitsConfig, UsageListsTheSettings) {
  const std::string usage = ConfigUsage();
  for (const char* name :
       {"MDC_RATE_LIMIT_READS", "MDC_RATE_LIMIT_READS_BURST",
        "MDC_RATE_LIMIT_WRITES", "MDC_RATE_LIMIT_WRITES_BURST",
        "MDC_STATEMENT_TIMEOUT"}) {
    EXPECT_NE(usage.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace mdc
