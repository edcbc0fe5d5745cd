#include "tests/support/service_stack.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "domain/tokens.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "service/api/admin_service.h"
#include "service/api/collector_service.h"
#include "service/api/dashboard/dashboard_service.h"
#include "service/api/developer_service.h"
#include "service/api/export_service.h"
#include "service/api/health_service.h"
#include "service/auth/auth.h"
#include "service/broker/broker_credentials.h"
#include "service/broker/broker_tokens.h"
#include "service/broker/http_client.h"
#include "service/calls/call_runner.h"
#include "service/metrics/metrics.h"

namespace mdc::testing {
namespace {

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "ServiceStack: %s\n", message.c_str());
  std::abort();
}

// No broker is configured in the stack (empty token URL), so nothing calls
// out; should something try, it learns the network is not there.
class NoHttp final : public HttpClient {
 public:
  absl::StatusOr<HttpResponse> PostJson(absl::string_view, absl::string_view,
                                        absl::Duration) override {
    return absl::UnavailableError("no network in service tests");
  }
};

}  // namespace

Headers Headers::At(std::string timestamp, std::string timezone) const {
  Headers headers = *this;
  headers.current_timestamp = std::move(timestamp);
  headers.current_timezone = std::move(timezone);
  return headers;
}

void Headers::ApplyTo(grpc::ClientContext& context) const {
  if (!authorization.empty()) {
    context.AddMetadata("authorization", authorization);
  }
  if (!current_timestamp.empty()) {
    context.AddMetadata("x-current-timestamp", current_timestamp);
  }
  if (!current_timezone.empty()) {
    context.AddMetadata("x-current-timezone", current_timezone);
  }
}

Headers Bearer(absl::string_view token) {
  return Headers{absl::StrCat("Bearer ", token)};
}

Headers Anonymous() { return Headers{}; }

std::vector<std::string> ViolatedFields(const grpc::Status& status) {
  std::vector<std::string> fields;
  google::rpc::Status details;
  if (!details.ParseFromString(status.error_details())) return fields;
  for (const auto& any : details.details()) {
    google::rpc::BadRequest bad_request;
    if (!any.UnpackTo(&bad_request)) continue;
    for (const auto& violation : bad_request.field_violations()) {
      fields.push_back(violation.field());
    }
  }
  return fields;
}

// Everything behind the server, in the order server.cc builds it (members
// are destroyed in reverse, after the server has stopped).
struct ServiceStack::Services {
  explicit Services(storage::ConnectionPool& pool)
      : repos(pool),
        throttle(repos.sign_ins),
        auth(repos.developers, throttle),
        calls(auth, metrics),
        collector(calls,
                  CollectorService::Stores{repos.shortlists, repos.nifty,
                                           repos.quotes, repos.holidays}),
        env_broker_credentials("", ""),
        broker_tokens(repos.broker_tokens, env_broker_credentials, http,
                      /*token_url=*/"", absl::Seconds(1)),
        developer(calls,
                  DeveloperService::Stores{
                      repos.shortlists, repos.nifty, repos.quotes,
                      repos.holidays, repos.quote_batches, repos.instruments},
                  broker_tokens),
        dashboard(calls, auth,
                  DashboardService::Stores{repos.shortlists, repos.quotes,
                                           repos.nifty, repos.quote_batches,
                                           repos.runs, repos.coverage,
                                           repos.developer_writes}),
        admin(calls,
              AdminService::Stores{repos.developers, repos.holidays,
                                   repos.market_data, repos.maintenance,
                                   repos.broker_credentials, repos.compaction,
                                   repos.storage_report, repos.instruments},
              /*secret_box=*/std::nullopt),
        health(calls, pool),
        stream_slots(domain::StreamLimits{}),
        exports(calls,
                ExportStores{repos.market_events, repos.quotes, repos.nifty,
                             repos.quote_batches, repos.instruments},
                stream_slots) {}

  storage::Repositories repos;
  Metrics metrics;  // Not served: no metrics port in tests.
  TokenThrottle throttle;
  Authenticator auth;
  CallRunner calls;
  CollectorService collector;
  NoHttp http;
  EnvBrokerCredentials env_broker_credentials;
  BrokerTokens broker_tokens;
  DeveloperService developer;
  DashboardService dashboard;
  AdminService admin;
  HealthService health;
  StreamSlots stream_slots;  // before exports, which give places back
  ExportService exports;
};

ServiceStack::ServiceStack(storage::ConnectionPool& pool)
    : services_(std::make_unique<Services>(pool)) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                           &port_);
  builder.RegisterService(&services_->collector);
  builder.RegisterService(&services_->developer);
  builder.RegisterService(&services_->dashboard);
  builder.RegisterService(&services_->admin);
  builder.RegisterService(&services_->health);
  builder.RegisterService(&services_->exports);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port_ == 0) Fail("cannot start the gRPC server");
  channel_ = grpc::CreateChannel(absl::StrCat("127.0.0.1:", port_),
                                 grpc::InsecureChannelCredentials());
  collector_ = v1::CollectorService::NewStub(channel_);
  developer_ = v1::DeveloperService::NewStub(channel_);
  dashboard_ = v1::DashboardService::NewStub(channel_);
  admin_ = v1::AdminService::NewStub(channel_);
  health_ = v1::HealthService::NewStub(channel_);
  exports_ = v1::ExportService::NewStub(channel_);
}

ServiceStack::~ServiceStack() {
  server_->Shutdown(absl::ToChronoTime(absl::Now() + absl::Seconds(5)));
  server_->Wait();
  server_.reset();
}

storage::Repositories& ServiceStack::repos() { return services_->repos; }

std::string ServiceStack::NewAccount(absl::string_view prefix,
                                     absl::string_view role) {
  const std::string token = domain::GenerateToken();
  const std::string username = absl::StrCat(prefix, ++accounts_);
  auto created = services_->repos.developers.Create(username, std::string(role),
                                                    domain::HashToken(token));
  if (!created.ok()) {
    Fail(absl::StrCat("cannot create ", username, ": ",
                      created.status().ToString()));
  }
  return token;
}

void ServiceTest::SetUpTestSuite() {
  db_ = new TestDatabase();
  stack_ = new ServiceStack(db_->pool());
}

void ServiceTest::TearDownTestSuite() {
  delete stack_;
  stack_ = nullptr;
  delete db_;
  db_ = nullptr;
}

}  // namespace mdc::testing
