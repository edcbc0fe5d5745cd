// The broker settings of the server configuration.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "service/config.h"

namespace mdc {
namespace {

absl::StatusOr<Config> Load(std::map<std::string, std::string> vars,
                            std::vector<std::string> args = {}) {
  vars.emplace("DATABASE_URL", "postgres://localhost/mdc");
  return LoadConfig(args, [&vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

TEST(BrokerConfig, DefaultsToNoBroker) {
  auto config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->broker_token_url, "");
  EXPECT_EQ(config->broker_timeout_seconds, 10);
}

TEST(BrokerConfig, ReadsTheEnvironment) {
  auto config = Load({{"MDC_BROKER_TOKEN_URL", "https://broker.example/token"},
                      {"MDC_BROKER_API_KEY", "key"},
                      {"MDC_BROKER_API_SECRET", "secret"},
                      {"MDC_BROKER_TIMEOUT_SECONDS", "3"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->broker_token_url, "https://broker.example/token");
  EXPECT_EQ(config->broker_api_key, "key");
  EXPECT_EQ(config->broker_api_secret, "secret");
  EXPECT_EQ(config->broker_timeout_seconds, 3);
}

TEST(BrokerConfig, FlagsWinOverTheEnvironment) {
  auto config = Load({{"MDC_BROKER_TOKEN_URL", "http://a/token"}},
                     {"--broker-token-url=http://b/token"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->broker_token_url, "http://b/token");
}

TEST(BrokerConfig, RefusesBadValuesNamingTheVariable) {
  for (const auto& [name, value] : std::map<std::string, std::string>{
           {"MDC_BROKER_TOKEN_URL", "ftp://broker/token"},
           {"MDC_BROKER_TIMEOUT_SECONDS", "0"}}) {
    auto config = Load({{name, value}});
    ASSERT_FALSE(config.ok()) << name;
    EXPECT_NE(config.status().message().find(name), std::string::npos)
        << config.status();
  }
}

}  // namespace
}  // namespace mdc
