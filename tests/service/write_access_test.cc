// The write path checks the RPC's access fact (proto options) as the read
// path does (WriteCall, service/calls/write_call.h). The writer is
// authenticated inside the statement that writes, so the write path can
// serve developer RPCs only: an RPC declared for admin or public access
// that is routed through it is refused before anything is written, whatever
// the token. The RPC here is an in-process callback service with RpcFacts
// of its own, over the real CallRunner, authenticator and NIFTY repository
// on a real PostgreSQL; the same handler with the facts of a developer RPC
// writes, so the refusal comes from the facts alone.
#include <gmock/gmock.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "domain/observations.h"
#include "domain/tokens.h"
#include "mdc/v1/collector.grpc.pb.h"
#include "service/auth/auth.h"
#include "service/auth/token_throttle.h"
#include "service/calls/call_runner.h"
#include "service/calls/rpc_facts.h"
#include "service/calls/write_call.h"
#include "service/metrics/metrics.h"
#include "storage/repositories.h"
#include "tests/support/collector_requests.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

using ::testing::HasSubstr;

// Serves SaveNifty through the write path as an RPC with `facts`, writing
// the NIFTY quote as a collector does. Counts the calls its handler got
// past StartWrite.
class FactsWriteService final
    : public v1::CollectorService::WithCallbackMethod_SaveNifty<
          v1::CollectorService::Service> {
 public:
  FactsWriteService(CallRunner& runner, storage::NiftyRepository& nifty,
                    RpcFacts facts)
      : runner_(runner), nifty_(nifty), facts_(facts) {}

  grpc::ServerUnaryReactor* SaveNifty(grpc::CallbackServerContext* context,
                                      const v1::SaveNiftyRequest* request,
                                      google::protobuf::Empty*) override {
    WriteCall call =
        runner_.StartWrite(context, context->DefaultReactor(), facts_);
    if (!call.open()) return call.reactor();
    ++handled_;
    auto nifty = domain::ValidateNifty(request->data());
    if (!nifty.ok()) return call.Refuse(nifty.status());
    nifty_.Upsert(*nifty, call.token_hash(), call.Committed());
    return call.reactor();
  }

  int handled() const { return handled_.load(); }

 private:
  CallRunner& runner_;
  storage::NiftyRepository& nifty_;
  const RpcFacts facts_;
  std::atomic<int> handled_{0};
};

class WriteAccessTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new testing::TestDatabase(); }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  WriteAccessTest()
      : repos_(db_->pool()),
        throttle_(repos_.sign_ins),
        auth_(repos_.developers, throttle_),
        runner_(auth_, metrics_) {}

  // A token of a new account with `role`.
  std::string Account(const std::string& role) {
    const std::string token = domain::GenerateToken();
    auto created = repos_.developers.Create(absl::StrCat(role, ++accounts_),
                                            role, domain::HashToken(token));
    EXPECT_TRUE(created.ok()) << created.status();
    return token;
  }

  // Sends a NIFTY quote observed at `timestamp` with `token` to a server of
  // one FactsWriteService with `facts`; what it answered and how many calls
  // its handler got past StartWrite.
  std::pair<grpc::Status, int> Write(RpcFacts facts, const std::string& token,
                                     const std::string& timestamp) {
    FactsWriteService service(runner_, repos_.nifty, facts);
    int port = 0;
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(),
                             &port);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    EXPECT_NE(server, nullptr);
    if (server == nullptr) return {grpc::Status::CANCELLED, 0};
    auto stub = v1::CollectorService::NewStub(grpc::CreateChannel(
        absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + absl::Seconds(20)));
    context.AddMetadata("authorization", "Bearer " + token);
    google::protobuf::Empty empty;
    const grpc::Status status =
        stub->SaveNifty(&context, testing::NiftyRequest(timestamp), &empty);
    server->Shutdown();
    server->Wait();
    return {status, service.handled()};
  }

  // Whether a NIFTY quote observed at `timestamp` is stored.
  bool Stored(const std::string& timestamp) {
    const absl::Time at = testing::IstInstant(timestamp);
    auto found = repos_.nifty.FindLatest(at, at);
    EXPECT_TRUE(found.ok()) << found.status();
    return found.ok() && found->has_value();
  }

  static RpcFacts Facts(Access access) {
    RpcFacts facts;
    facts.service = "test.FactsWrites";
    facts.method = "SaveNiftyAs";
    facts.access = access;
    facts.rate = RateClass::kWrites;
    return facts;
  }

  static inline testing::TestDatabase* db_ = nullptr;
  static inline std::atomic<int> accounts_{0};
  storage::Repositories repos_;
  TokenThrottle throttle_;
  Authenticator auth_;
  Metrics metrics_;
  CallRunner runner_;
};

TEST_F(WriteAccessTest, AnAdminRpcIsRefusedBeforeItWritesEvenForAnAdmin) {
  const std::string timestamp = "2025-03-10T10:00:00";
  for (const std::string role : {"admin", "developer"}) {
    SCOPED_TRACE(role);
    auto [status, handled] =
        Write(Facts(Access::kAdmin), Account(role), timestamp);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
        << status.error_message();
    EXPECT_THAT(status.error_message(),
                HasSubstr("test.FactsWrites/SaveNiftyAs"));
    EXPECT_THAT(status.error_message(), HasSubstr("admin access"));
    EXPECT_EQ(handled, 0);
  }
  EXPECT_FALSE(Stored(timestamp));
}

TEST_F(WriteAccessTest, APublicRpcIsRefusedBeforeItWrites) {
  const std::string timestamp = "2025-03-10T10:01:00";
  auto [status, handled] =
      Write(Facts(Access::kPublic), Account("developer"), timestamp);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
      << status.error_message();
  EXPECT_THAT(status.error_message(), HasSubstr("public access"));
  EXPECT_EQ(handled, 0);
  EXPECT_FALSE(Stored(timestamp));
}

// The control: the same handler, with the facts of a developer RPC, writes.
TEST_F(WriteAccessTest, ADeveloperRpcWrites) {
  const std::string timestamp = "2025-03-10T10:02:00";
  auto [status, handled] =
      Write(Facts(Access::kDeveloper), Account("developer"), timestamp);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(handled, 1);
  EXPECT_TRUE(Stored(timestamp));
}

}  // namespace
}  // namespace mdc
