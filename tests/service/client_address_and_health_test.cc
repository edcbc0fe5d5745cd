// The whole mdc-server (mdc::Server::Start, as main.cc runs it) on a test
// database: grpc.health.v1 answers for "" and for every mdc service and is
// known to the descriptor pool reflection reads; x-forwarded-for counts only
// from a trusted proxy; and the failed-token throttle (sign-in and every
// other route) locks a guessing address out without locking out the tokens
// in use behind it.
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
#include "domain/token_throttle.h"
#include "domain/tokens.h"
#include "google/protobuf/descriptor.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "mdc/v1/dashboard.grpc.pb.h"
#include "mdc/v1/developer.grpc.pb.h"
#include "service/config/config.h"
#include "service/lifecycle/server.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

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
    // The throttle counts per clock minute: its clock stands still, in a
    // minute of each server's own, so a test's attempts all fall in one
    // minute however long they take (and no lock's probe comes due).
    throttle_now_ =
        absl::FromCivil(absl::CivilMinute(2030, 1, 1, 0, 0) + ++starts_,
                        absl::UTCTimeZone()) +
        absl::Seconds(30);
    config.throttle_clock = [now = throttle_now_] { return now; };
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

  grpc::Status ListHolidays(const std::string& token,
                            const std::string& forwarded_for) {
    auto stub = v1::DeveloperService::NewStub(channel_);
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
    context.AddMetadata("authorization", "Bearer " + token);
    context.AddMetadata("x-forwarded-for", forwarded_for);
    v1::ListHolidaysRequest request;
    v1::ListHolidaysResponse response;
    return stub->ListHolidays(&context, request, &response);
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
  static int starts_;
  absl::Time throttle_now_;  // what the throttle's clock says
  std::unique_ptr<Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
};

testing::TestDatabase* WholeServerTest::db_ = nullptr;
storage::Repositories* WholeServerTest::repos_ = nullptr;
int WholeServerTest::accounts_ = 0;
int WholeServerTest::starts_ = 0;

TEST_F(WholeServerTest, HealthAnswersForTheServerAndEveryMdcService) {
  Start({"127.0.0.1", "::1"});
  auto health = grpc::health::v1::Health::NewStub(channel_);
  std::vector<std::string> names = {""};
  for (const std::string& name : HealthCheckedServices()) names.push_back(name);
  EXPECT_EQ(names.size(), 9u);
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

// Unknown tokens until the throttle answers RESOURCE_EXHAUSTED; returns how
// many 401s came first (kMaxFailedTokensPerMinute: a synchronous handler
// answers 401 once the failure is counted), or -1 when it never locked.
int FailUntilLocked(
    const std::function<grpc::StatusCode(const std::string&)>& attempt) {
  for (int failures = 0; failures < 3 * domain::kMaxFailedTokensPerMinute;) {
    const grpc::StatusCode code = attempt(domain::GenerateToken());
    if (code == grpc::StatusCode::RESOURCE_EXHAUSTED) return failures;
    EXPECT_EQ(code, grpc::StatusCode::UNAUTHENTICATED);
    ++failures;
  }
  return -1;
}

TEST_F(WholeServerTest, ForwardedForFromAnUntrustedPeerDoesNotDodgeTheLimit) {
  Start({"192.0.2.1"});  // Not 127.0.0.1: the test client is untrusted.
  int i = 0;
  const int failures = FailUntilLocked([&](const std::string& token) {
    return SignIn(token, absl::StrCat("203.0.113.", ++i % 250 + 1));
  });
  EXPECT_GE(failures, domain::kMaxFailedTokensPerMinute);
  EXPECT_LE(failures, domain::kMaxFailedTokensPerMinute + 1);
  EXPECT_EQ(SignIn(domain::GenerateToken(), ""),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(WholeServerTest, ForwardedForFromATrustedProxyNamesTheClient) {
  Start({"127.0.0.1", "::1"});
  const int failures = FailUntilLocked(
      [&](const std::string& token) { return SignIn(token, "198.51.100.7"); });
  EXPECT_GE(failures, domain::kMaxFailedTokensPerMinute);
  EXPECT_LE(failures, domain::kMaxFailedTokensPerMinute + 1);
  // Another client behind the same proxy is another address.
  EXPECT_EQ(SignIn(domain::GenerateToken(), "198.51.100.8"),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(WholeServerTest, ForwardedForFromATrustedNetworkNamesTheClient) {
  // As in Kubernetes: the gateway's address changes, its network does not.
  Start({"192.0.2.0/24", "127.0.0.0/8"});
  const int failures = FailUntilLocked(
      [&](const std::string& token) { return SignIn(token, "198.51.100.9"); });
  EXPECT_GE(failures, domain::kMaxFailedTokensPerMinute);
  EXPECT_LE(failures, domain::kMaxFailedTokensPerMinute + 1);
  EXPECT_EQ(SignIn(domain::GenerateToken(), "198.51.100.10"),
            grpc::StatusCode::UNAUTHENTICATED);
}

// Issue 20: one client's bad tokens must not lock out the good tokens of
// its neighbours behind the same address, on any route; the guesser's own
// requests are refused before their tokens are looked up.
TEST_F(WholeServerTest, TokensInUseAreNotLockedOutByTheirAddress) {
  Start({"127.0.0.1", "::1"});
  const std::string address = "198.51.100.20";
  const std::string collector = NewDeveloper();
  const std::string dashboard_user = NewDeveloper();
  ASSERT_EQ(ListHolidays(collector, address).error_code(),
            grpc::StatusCode::OK);
  ASSERT_EQ(SignIn(dashboard_user, address), grpc::StatusCode::OK);

  // Bad tokens on a developer route count as sign-in failures do.
  const int failures = FailUntilLocked([&](const std::string& token) {
    return ListHolidays(token, address).error_code();
  });
  EXPECT_GE(failures, domain::kMaxFailedTokensPerMinute);
  EXPECT_LE(failures, domain::kMaxFailedTokensPerMinute + 1);
  const int counted =
      repos_->sign_ins.FailuresThisMinute(address, throttle_now_).value_or(-1);

  const grpc::Status refused = ListHolidays(domain::GenerateToken(), address);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(refused.error_details().find("AUTH_THROTTLED"), std::string::npos);
  EXPECT_NE(refused.error_details().find("RetryInfo"), std::string::npos);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(SignIn(domain::GenerateToken(), address),
              grpc::StatusCode::RESOURCE_EXHAUSTED);
  }
  // Refused attempts never reached the database: nothing more was counted.
  EXPECT_EQ(
      repos_->sign_ins.FailuresThisMinute(address, throttle_now_).value_or(-1),
      counted);

  // The tokens in use go on, on every route.
  EXPECT_EQ(ListHolidays(collector, address).error_code(),
            grpc::StatusCode::OK);
  EXPECT_EQ(SignIn(dashboard_user, address), grpc::StatusCode::OK);
  EXPECT_EQ(SignIn(collector, address), grpc::StatusCode::OK);
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
  // A server others can reach trusts no one unless told.
  for (const char* addr :
       {"0.0.0.0:50051", "[::]:50051", "10.0.0.5:50051", "mdc-server:50051"}) {
    auto open =
        LoadConfig({absl::StrCat("--grpc-addr=", addr)}, EnvWith(nullptr));
    ASSERT_TRUE(open.ok());
    EXPECT_TRUE(open->trusted_proxies.empty()) << addr;
  }
  for (const char* addr :
       {"127.0.0.1:1", "[::1]:1", "localhost:1", "127.0.0.2:1"}) {
    EXPECT_TRUE(ListensOnLoopbackOnly(addr)) << addr;
  }
  auto named = LoadConfig({"--grpc-addr=0.0.0.0:50051"}, EnvWith("10.0.0.9"));
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->trusted_proxies, std::vector<std::string>{"10.0.0.9"});
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

}  // namespace
}  // namespace mdc
