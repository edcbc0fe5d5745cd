// The whole mdc-server (mdc::Server::Start, as main.cc runs it) on a test
// database: grpc.health.v1 answers for "" and for every mdc service and is
// known to the descriptor pool reflection reads; x-forwarded-for counts only
// from a trusted proxy; and the sign-in throttle counts per address and
// token, so one client's failures cannot lock out another's good sign-in.
#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "domain/sign_in.h"
#include "domain/tokens.h"
#include "google/protobuf/descriptor.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "mdc/v1/dashboard.grpc.pb.h"
#include "service/config/config.h"
#include "service/lifecycle/server.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

// The throttle counts per clock minute: a test that must see its 11th
// attempt in the minute of its 1st starts early enough in a minute.
void AwayFromMinuteEnd() {
  const absl::Duration into =
      absl::Now() -
      absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 60 * 60);
  if (into > absl::Seconds(45)) absl::SleepFor(absl::Seconds(61) - into);
}

class WholeServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    repos_ = new storage::Repositories(db_->pool());
  }
  static void TearDownTestSuite() {
    delete repos_;
    delete db_;
  }

  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  // Starts mdc-server on 127.0.0.1 trusting `trusted_proxies`.
  void Start(std::vector<std::string> trusted_proxies) {
    Config config;
    config.grpc_addr = "127.0.0.1:0";
    config.database_url = db_->url();
    config.db_pool_size = 2;
    config.max_threads = 8;
    config.drain_seconds = 0;
    config.trusted_proxies = std::move(trusted_proxies);
    auto started = Server::Start(config);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
    channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                   grpc::InsecureChannelCredentials());
  }

  std::string NewDeveloper() {
    const std::string token = domain::GenerateToken();
    auto created =
        repos_->developers.Create(absl::StrCat("dev", ++accounts_), "developer",
                                  domain::HashToken(token));
    EXPECT_TRUE(created.ok()) << created.status();
    return token;
  }

  grpc::StatusCode SignIn(const std::string& token,
                          const std::string& forwarded_for) {
    auto stub = v1::DashboardService::NewStub(channel_);
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
    if (!forwarded_for.empty()) {
      context.AddMetadata("x-forwarded-for", forwarded_for);
    }
    v1::SignInRequest request;
    request.set_developer_token(token);
    v1::Developer response;
    return stub->SignIn(&context, request, &response).error_code();
  }

  static testing::TestDatabase* db_;
  static storage::Repositories* repos_;
  static int accounts_;
  std::unique_ptr<Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

testing::TestDatabase* WholeServerTest::db_ = nullptr;
storage::Repositories* WholeServerTest::repos_ = nullptr;
int WholeServerTest::accounts_ = 0;

TEST_F(WholeServerTest, HealthAnswersForTheServerAndEveryMdcService) {
  Start({"127.0.0.1", "::1"});
  auto health = grpc::health::v1::Health::NewStub(channel_);
  std::vector<std::string> names = {""};
  for (const std::string& name : HealthCheckedServices()) names.push_back(name);
  EXPECT_EQ(names.size(), 7u);
  for (const std::string& name : names) {
    // The monitor publishes right after start; poll briefly for it.
    HealthCheckResponse response;
    grpc::Status status;
    for (int attempt = 0; attempt < 50; ++attempt) {
      grpc::ClientContext context;
      context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
      HealthCheckRequest request;
      request.set_service(name);
      status = health->Check(&context, request, &response);
      if (status.ok() && response.status() == HealthCheckResponse::SERVING) {
        break;
      }
      absl::SleepFor(absl::Milliseconds(100));
    }
    EXPECT_TRUE(status.ok()) << name << ": " << status.error_message();
    EXPECT_EQ(response.status(), HealthCheckResponse::SERVING) << name;
  }
  grpc::ClientContext context;
  HealthCheckRequest request;
  request.set_service("mdc.v1.NoSuchService");
  HealthCheckResponse response;
  EXPECT_EQ(health->Check(&context, request, &response).error_code(),
            grpc::StatusCode::NOT_FOUND);

  // Reflection answers from the generated pool: the server links it in.
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  const auto* service = pool->FindServiceByName("grpc.health.v1.Health");
  ASSERT_NE(service, nullptr);
  EXPECT_NE(service->FindMethodByName("Check"), nullptr);
  EXPECT_NE(service->FindMethodByName("Watch"), nullptr);
  EXPECT_EQ(service->file()->name(), "grpc/health/v1/health.proto");
}

TEST_F(WholeServerTest, ForwardedForFromAnUntrustedPeerDoesNotDodgeTheLimit) {
  Start({"192.0.2.1"});  // Not 127.0.0.1: the test client is untrusted.
  AwayFromMinuteEnd();
  const std::string bad = domain::GenerateToken();
  for (int i = 0; i < domain::kMaxSignInFailuresPerMinute; ++i) {
    EXPECT_EQ(SignIn(bad, absl::StrCat("203.0.113.", i + 1)),
              grpc::StatusCode::UNAUTHENTICATED)
        << i;
  }
  EXPECT_EQ(SignIn(bad, "203.0.113.200"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(SignIn(bad, ""), grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(WholeServerTest, ForwardedForFromATrustedProxyNamesTheClient) {
  Start({"127.0.0.1", "::1"});
  AwayFromMinuteEnd();
  const std::string bad = domain::GenerateToken();
  for (int i = 0; i < domain::kMaxSignInFailuresPerMinute; ++i) {
    EXPECT_EQ(SignIn(bad, "198.51.100.7"), grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(SignIn(bad, "198.51.100.7"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  // Another client behind the same proxy is another address.
  EXPECT_EQ(SignIn(bad, "198.51.100.8"), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(WholeServerTest, ForwardedForFromATrustedNetworkNamesTheClient) {
  // As in Kubernetes: the gateway's address changes, its network does not.
  Start({"192.0.2.0/24", "127.0.0.0/8"});
  AwayFromMinuteEnd();
  const std::string bad = domain::GenerateToken();
  for (int i = 0; i < domain::kMaxSignInFailuresPerMinute; ++i) {
    EXPECT_EQ(SignIn(bad, "198.51.100.9"), grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_EQ(SignIn(bad, "198.51.100.9"), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(SignIn(bad, "198.51.100.10"), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(WholeServerTest, FailuresWithOneTokenDoNotLockOutAnotherFromTheAddress) {
  Start({"127.0.0.1", "::1"});
  AwayFromMinuteEnd();
  const std::string good = NewDeveloper();
  const std::string bad = domain::GenerateToken();
  for (int i = 0; i < 3 * domain::kMaxSignInFailuresPerMinute; ++i) {
    const grpc::StatusCode code = SignIn(bad, "198.51.100.20");
    EXPECT_EQ(code, i < domain::kMaxSignInFailuresPerMinute
                        ? grpc::StatusCode::UNAUTHENTICATED
                        : grpc::StatusCode::RESOURCE_EXHAUSTED)
        << i;
  }
  EXPECT_EQ(SignIn(good, "198.51.100.20"), grpc::StatusCode::OK);
  // Refused attempts are not failures: the address is far from its limit.
  EXPECT_EQ(repos_->sign_ins.FailuresThisMinute("198.51.100.20").value_or(-1),
            domain::kMaxSignInFailuresPerMinute);
}

TEST_F(WholeServerTest, ManyTokensFromOneAddressHitTheAddressLimit) {
  Start({"127.0.0.1", "::1"});
  AwayFromMinuteEnd();
  const std::string good = NewDeveloper();
  for (int i = 0; i < domain::kMaxSignInFailuresPerAddressPerMinute; ++i) {
    ASSERT_EQ(SignIn(domain::GenerateToken(), "198.51.100.30"),
              grpc::StatusCode::UNAUTHENTICATED)
        << i;
  }
  EXPECT_EQ(SignIn(good, "198.51.100.30"),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(SignIn(good, "198.51.100.31"), grpc::StatusCode::OK);
}

}  // namespace
}  // namespace mdc

namespace mdc {
namespace {

// The environment with DATABASE_URL set and MDC_TRUSTED_PROXIES as given
// (unset when null).
std::function<const char*(const char*)> EnvWith(const char* trusted) {
  return [trusted](const char* name) -> const char* {
    const std::string key(name);
    if (key == "DATABASE_URL") return "postgres://x/y";
    return key == "MDC_TRUSTED_PROXIES" ? trusted : nullptr;
  };
}

absl::StatusOr<Config> LoadWith(const char* trusted) {
  return LoadConfig({}, EnvWith(trusted));
}

TEST(TrustedProxiesConfig, DefaultsToLoopbackAndReadsAList) {
  auto defaults = LoadWith(nullptr);
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->trusted_proxies,
            (std::vector<std::string>{"127.0.0.1", "::1"}));
  auto listed = LoadWith(" 10.0.0.2, 0:0::1 ,,::ffff:10.0.0.3");
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_EQ(listed->trusted_proxies,
            (std::vector<std::string>{"10.0.0.2", "::1", "10.0.0.3"}));
  auto none = LoadWith("");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->trusted_proxies.empty());
  EXPECT_FALSE(LoadWith("10.0.0.2,gateway").ok());
  auto networks = LoadWith("10.244.0.0/16, fd00::/8,10.0.0.9/32");
  ASSERT_TRUE(networks.ok()) << networks.status();
  EXPECT_EQ(
      networks->trusted_proxies,
      (std::vector<std::string>{"10.244.0.0/16", "fd00::/8", "10.0.0.9"}));
  EXPECT_FALSE(LoadWith("10.244.0.1/16").ok());  // bits past the prefix
  EXPECT_FALSE(LoadWith("10.0.0.0/33").ok());
  auto flag = LoadConfig({"--trusted-proxies=192.0.2.9"}, EnvWith("::1"));
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag->trusted_proxies, std::vector<std::string>{"192.0.2.9"});
}

TEST(ClientTokenKey, DependsOnTheTokenButNeverHoldsIt) {
  const std::string a = domain::ClientTokenKey("10.0.0.7", "secret-a");
  EXPECT_NE(a, domain::ClientTokenKey("10.0.0.7", "secret-b"));
  EXPECT_EQ(a, domain::ClientTokenKey("10.0.0.7", "secret-a"));
  EXPECT_EQ(a.find("secret"), std::string::npos);
  EXPECT_EQ(a.rfind("10.0.0.7 ", 0), 0u);
  EXPECT_EQ(a.size(), std::string("10.0.0.7 ").size() + 16);
}

}  // namespace
}  // namespace mdc
