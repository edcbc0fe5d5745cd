// The broker settings of the server configuration and its secret key.
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

// A valid MDC_SECRET_KEY: 64 hex characters.
constexpr char kSecretKeyHex[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

TEST(Config, SecretKeyIsValidatedAndNeverEchoed) {
  const auto env = [](std::map<std::string, std::string> vars) {
    return [vars](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  };
  auto good = LoadConfig({}, env({{"DATABASE_URL", "postgres://x/y"},
                                  {"MDC_SECRET_KEY", kSecretKeyHex}}));
  ASSERT_TRUE(good.ok()) << good.status();
  EXPECT_EQ(good->secret_key, kSecretKeyHex);
  auto bad = LoadConfig({}, env({{"DATABASE_URL", "postgres://x/y"},
                                 {"MDC_SECRET_KEY", "hunter2-hunter2"}}));
  ASSERT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("MDC_SECRET_KEY"), std::string::npos);
  EXPECT_EQ(bad.status().message().find("hunter2"), std::string::npos);
  auto flag = LoadConfig({"--secret-key=hunter2-hunter2"},
                         env({{"DATABASE_URL", "postgres://x/y"}}));
  ASSERT_FALSE(flag.ok());
  EXPECT_EQ(flag.status().message().find("hunter2"), std::string::npos);
}

}  // namespace
}  // namespace mdc
