// MDC_MAX_CONNECTION_AGE: the server asks a client connection older than the
// setting to go away (HTTP/2 GOAWAY), so a client that finds the servers
// through DNS (the gateway behind a Kubernetes headless Service) connects
// again, resolving the name anew; without the setting a connection stays.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "service/config/config.h"
#include "service/lifecycle/server.h"
#include "tests/support/config_from.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

class MaxConnectionAgeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new testing::TestDatabase(); }
  static void TearDownTestSuite() { delete db_; }
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  // Starts the server with `age` and returns a channel to it that is READY
  // (one health check answered).
  std::shared_ptr<grpc::Channel> StartAndConnect(absl::Duration age) {
    Config config;
    config.grpc_addr = "127.0.0.1:0";
    config.database_url = db_->url();
    config.db_pool_size = 2;
    config.max_threads = 8;
    config.drain_seconds = 0;
    config.max_connection_age = age;
    auto started = Server::Start(config);
    EXPECT_TRUE(started.ok()) << started.status();
    if (!started.ok()) return nullptr;
    server_ = *std::move(started);
    auto channel =
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                            grpc::InsecureChannelCredentials());
    EXPECT_TRUE(Check(*channel).ok());
    EXPECT_EQ(channel->GetState(false), GRPC_CHANNEL_READY);
    return channel;
  }

  static grpc::Status Check(grpc::Channel& channel) {
    auto health = grpc::health::v1::Health::NewStub(
        std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel*) {}));
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
    grpc::health::v1::HealthCheckRequest request;
    grpc::health::v1::HealthCheckResponse response;
    return health->Check(&context, request, &response);
  }

  static testing::TestDatabase* db_;
  std::unique_ptr<Server> server_;
};

testing::TestDatabase* MaxConnectionAgeTest::db_ = nullptr;

TEST_F(MaxConnectionAgeTest, AnOldConnectionIsAskedToGoAwayAndComesBack) {
  auto channel = StartAndConnect(absl::Seconds(1));
  ASSERT_NE(channel, nullptr);
  // gRPC adds up to 10% jitter to the age; the GOAWAY moves the channel
  // out of READY well within 5 s.
  const bool changed = channel->WaitForStateChange(
      GRPC_CHANNEL_READY, absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
  EXPECT_TRUE(changed);
  EXPECT_NE(channel->GetState(false), GRPC_CHANNEL_READY);
  // The client connects again and calls go on.
  EXPECT_TRUE(Check(*channel).ok());
}

TEST_F(MaxConnectionAgeTest, WithoutTheSettingAConnectionStays) {
  auto channel = StartAndConnect(absl::ZeroDuration());
  ASSERT_NE(channel, nullptr);
  EXPECT_FALSE(channel->WaitForStateChange(
      GRPC_CHANNEL_READY,
      absl::ToChronoTime(absl::Now() + absl::Milliseconds(2500))));
  EXPECT_EQ(channel->GetState(false), GRPC_CHANNEL_READY);
}

TEST(MaxConnectionAgeConfig, ReadsZeroOrOneSecondTo24Hours) {
  auto defaults = testing::ConfigFrom({}, {});
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(defaults->max_connection_age, absl::ZeroDuration());
  auto set = testing::ConfigFrom({{"MDC_MAX_CONNECTION_AGE", "5m"}}, {});
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(set->max_connection_age, absl::Minutes(5));
  auto flag = testing::ConfigFrom({{"MDC_MAX_CONNECTION_AGE", "5m"}},
                                  {"--max-connection-age=0"});
  ASSERT_TRUE(flag.ok()) << flag.status();
  EXPECT_EQ(flag->max_connection_age, absl::ZeroDuration());
  for (const char* ok : {"1s", "24h"}) {
    EXPECT_TRUE(testing::ConfigFrom({{"MDC_MAX_CONNECTION_AGE", ok}}, {}).ok())
        << ok;
  }
  for (const char* bad : {"999ms", "25h", "-1s", "often", ""}) {
    auto refused = testing::ConfigFrom({{"MDC_MAX_CONNECTION_AGE", bad}}, {});
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("MDC_MAX_CONNECTION_AGE"),
              absl::string_view::npos);
  }
}

}  // namespace
}  // namespace mdc
