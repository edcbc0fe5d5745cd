// The settings of the heavy-read gate (MDC_HEAVY_READS,
// MDC_HEAVY_READS_PER_DEVELOPER, MDC_HEAVY_READ_WAIT): their defaults, the
// environment and flags, their ranges, and a bad value stopping start-up
// with an error naming the setting.
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

TEST(HeavyReadsConfig, DefaultsToTwoAtOnceTwoPerDeveloperAndTenSeconds) {
  auto config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->heavy_reads, 2);
  EXPECT_EQ(config->heavy_reads_per_developer, 2);
  EXPECT_EQ(config->heavy_read_wait, absl::Seconds(10));
}

TEST(HeavyReadsConfig, ReadsTheEnvironmentAndFlagsWin) {
  auto config = Load({{"MDC_HEAVY_READS", "4"},
                      {"MDC_HEAVY_READS_PER_DEVELOPER", "1"},
                      {"MDC_HEAVY_READ_WAIT", "2500ms"}},
                     {"--heavy-reads=0", "--heavy-read-wait", "0"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->heavy_reads, 0);
  EXPECT_EQ(config->heavy_reads_per_developer, 1);
  EXPECT_EQ(config->heavy_read_wait, absl::ZeroDuration());
}

TEST(HeavyReadsConfig, AcceptsTheBoundsOfEachRange) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"MDC_HEAVY_READS", "0"},
           {"MDC_HEAVY_READS", "1024"},
           {"MDC_HEAVY_READS_PER_DEVELOPER", "0"},
           {"MDC_HEAVY_READS_PER_DEVELOPER", "1024"},
           {"MDC_HEAVY_READ_WAIT", "0"},
           {"MDC_HEAVY_READ_WAIT", "1ms"},
           {"MDC_HEAVY_READ_WAIT", "60s"}}) {
    auto config = Load({{name, value}});
    EXPECT_TRUE(config.ok()) << name << "=" << value << ": " << config.status();
  }
}

TEST(HeavyReadsConfig, RefusesBadValuesNamingTheSetting) {
  for (const auto& [name, value] :
       std::vector<std::pair<std::string, std::string>>{
           {"MDC_HEAVY_READS", "-1"},
           {"MDC_HEAVY_READS", "1025"},
           {"MDC_HEAVY_READS", "two"},
           {"MDC_HEAVY_READS_PER_DEVELOPER", "-1"},
           {"MDC_HEAVY_READS_PER_DEVELOPER", "1.5"},
           {"MDC_HEAVY_READ_WAIT", "10"},  // no unit
           {"MDC_HEAVY_READ_WAIT", "61s"},
           {"MDC_HEAVY_READ_WAIT", "-1s"},
           {"MDC_HEAVY_READ_WAIT", "later"}}) {
    auto config = Load({{name, value}});
    ASSERT_FALSE(config.ok()) << name << "=" << value;
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(config.status().message().find(name), std::string::npos)
        << config.status();
  }
}

TEST(HeavyReadsConfig, UsageListsTheSettings) {
  const std::string usage = ConfigUsage();
  for (const char* name : {"MDC_HEAVY_READS", "MDC_HEAVY_READS_PER_DEVELOPER",
                           "MDC_HEAVY_READ_WAIT"}) {
    EXPECT_NE(usage.find(name), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace mdc
