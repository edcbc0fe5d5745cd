// The facts of every RPC come from the (mdc.v1.rpc) options of the protos
// (service/calls/rpc_facts.h): every RPC of every service the server runs
// has them all, each handler's request type names one RPC, and a proto
// that lacks one is refused, naming the RPC.
#include "service/calls/rpc_facts.h"

#include <gtest/gtest.h>

#include <string>

#include "google/protobuf/descriptor.pb.h"
#include "mdc/v1/admin.pb.h"
#include "mdc/v1/collector.pb.h"
#include "mdc/v1/dashboard.pb.h"
#include "mdc/v1/developer.pb.h"
#include "mdc/v1/health.pb.h"
#include "mdc/v1/options.pb.h"
#include "service/lifecycle/server.h"

namespace mdc {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::FileDescriptorProto;

TEST(RpcFacts, EveryRpcOfEveryServiceHasItsFacts) {
  int rpcs = 0;
  for (const std::string& service : HealthCheckedServices()) {
    auto facts = ServiceRpcs::Of(service);
    ASSERT_TRUE(facts.ok()) << facts.status();
    const auto* descriptor =
        DescriptorPool::generated_pool()->FindServiceByName(service);
    ASSERT_NE(descriptor, nullptr) << service;
    EXPECT_EQ(facts->all().size(),
              static_cast<size_t>(descriptor->method_count()))
        << service;
    for (int m = 0; m < descriptor->method_count(); ++m) {
      const RpcFacts* rpc = facts->Find(descriptor->method(m)->input_type());
      ASSERT_NE(rpc, nullptr) << descriptor->method(m)->full_name();
      EXPECT_EQ(rpc->method, descriptor->method(m)->name());
      EXPECT_EQ(rpc->service, service);
      ++rpcs;
    }
  }
  EXPECT_GE(rpcs, 46);
}

const RpcFacts& Facts(absl::string_view service,
                      const google::protobuf::Descriptor* request) {
  static auto* const keep = new std::vector<ServiceRpcs>();
  auto rpcs = ServiceRpcs::Of(service);
  EXPECT_TRUE(rpcs.ok()) << rpcs.status();
  keep->push_back(*std::move(rpcs));
  const RpcFacts* rpc = keep->back().Find(request);
  EXPECT_NE(rpc, nullptr) << request->full_name();
  return *rpc;
}

// What the options say of a few RPCs, as docs/architecture.md lists them.
TEST(RpcFacts, ReadTheOptionsOfTheProtos) {
  const RpcFacts& quote =
      Facts("mdc.v1.DeveloperService", v1::GetQuoteRequest::descriptor());
  EXPECT_EQ(quote.method, "GetQuote");
  EXPECT_EQ(quote.access, Access::kDeveloper);
  EXPECT_EQ(quote.rate, RateClass::kReads);
  EXPECT_EQ(quote.reads_from, ReadsFrom::kReplica);

  const RpcFacts& runs =
      Facts("mdc.v1.DashboardService", v1::ListRunsRequest::descriptor());
  EXPECT_EQ(runs.reads_from, ReadsFrom::kPrimary);  // the caller's own data
  const RpcFacts& create =
      Facts("mdc.v1.DashboardService", v1::CreateRunRequest::descriptor());
  EXPECT_EQ(create.rate, RateClass::kWrites);
  const RpcFacts& save =
      Facts("mdc.v1.CollectorService", v1::SaveQuotesRequest::descriptor());
  EXPECT_EQ(save.rate, RateClass::kWrites);
  EXPECT_EQ(save.access, Access::kDeveloper);
  const RpcFacts& sign_in =
      Facts("mdc.v1.DashboardService", v1::SignInRequest::descriptor());
  EXPECT_EQ(sign_in.access, Access::kPublic);
  // The heavy reads pass the heavy-read gate; an ordinary read does not.
  EXPECT_FALSE(quote.heavy_read);
  EXPECT_FALSE(save.heavy_read);
  EXPECT_TRUE(
      Facts("mdc.v1.DeveloperService", v1::GetQuotesRequest::descriptor())
          .heavy_read);
  EXPECT_TRUE(Facts("mdc.v1.DeveloperService",
                    v1::GetCandlesOfSymbolsRequest::descriptor())
                  .heavy_read);
  EXPECT_TRUE(
      Facts("mdc.v1.DashboardService", v1::GetCoverageRequest::descriptor())
          .heavy_read);
  EXPECT_EQ(sign_in.rate, RateClass::kNone);
  const RpcFacts& developers =
      Facts("mdc.v1.AdminService", v1::ListDevelopersRequest::descriptor());
  EXPECT_EQ(developers.access, Access::kAdmin);
  EXPECT_EQ(developers.rate, RateClass::kNone);
  const RpcFacts& health =
      Facts("mdc.v1.HealthService", v1::HealthCheckRequest::descriptor());
  EXPECT_EQ(health.access, Access::kPublic);
}

// A proto file of one service "test.Fake" with RPCs of the given request
// types and options (nullptr: no (mdc.v1.rpc) option), built in a pool
// over the generated one (which holds mdc/v1/options.proto).
class FakeProtos {
 public:
  FakeProtos() : pool_(DescriptorPool::generated_pool()) {
    file_.set_name("test/fake.proto");
    file_.set_package("test");
    file_.set_syntax("proto3");
    file_.add_dependency("mdc/v1/options.proto");
    file_.add_message_type()->set_name("A");
    file_.add_message_type()->set_name("B");
    service_ = file_.add_service();
    service_->set_name("Fake");
  }

  void AddRpc(const std::string& name, const std::string& request,
              const v1::RpcPolicy* policy) {
    auto* method = service_->add_method();
    method->set_name(name);
    method->set_input_type(".test." + request);
    method->set_output_type(".test.A");
    if (policy != nullptr) {
      method->mutable_options()->MutableExtension(v1::rpc)->CopyFrom(*policy);
    }
  }

  absl::StatusOr<ServiceRpcs> Read() {
    EXPECT_NE(pool_.BuildFile(file_), nullptr);
    return ServiceRpcs::Of("test.Fake", pool_);
  }

 private:
  DescriptorPool pool_;
  FileDescriptorProto file_;
  google::protobuf::ServiceDescriptorProto* service_;
};

v1::RpcPolicy Complete() {
  v1::RpcPolicy policy;
  policy.set_access(v1::ACCESS_DEVELOPER);
  policy.set_read_from(v1::READ_FROM_PRIMARY);
  policy.set_rate_limit(v1::RATE_LIMIT_READS);
  policy.set_backtest_clock(v1::BACKTEST_CLOCK_IGNORED);
  policy.set_retry("read");
  return policy;
}

TEST(RpcFacts, AnRpcWithoutItsOptionIsRefusedByName) {
  FakeProtos protos;
  const v1::RpcPolicy good = Complete();
  protos.AddRpc("Fine", "A", &good);
  protos.AddRpc("Forgotten", "B", nullptr);
  auto read = protos.Read();
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("test.Fake.Forgotten"),
            std::string::npos)
      << read.status();
}

TEST(RpcFacts, EveryFieldOfTheOptionIsNeeded) {
  for (const auto& [what, clear] :
       std::vector<std::pair<std::string, void (*)(v1::RpcPolicy&)>>{
           {"access", [](v1::RpcPolicy& p) { p.clear_access(); }},
           {"read_from", [](v1::RpcPolicy& p) { p.clear_read_from(); }},
           {"rate_limit", [](v1::RpcPolicy& p) { p.clear_rate_limit(); }},
           {"backtest_clock",
            [](v1::RpcPolicy& p) { p.clear_backtest_clock(); }},
           {"retry", [](v1::RpcPolicy& p) { p.clear_retry(); }}}) {
    FakeProtos protos;
    v1::RpcPolicy policy = Complete();
    clear(policy);
    protos.AddRpc("Partial", "A", &policy);
    auto read = protos.Read();
    ASSERT_FALSE(read.ok()) << what;
    EXPECT_NE(read.status().message().find(what), std::string::npos)
        << read.status();
  }
}

TEST(RpcFacts, OnlyAReadMayBeAHeavyRead) {
  FakeProtos protos;
  v1::RpcPolicy write = Complete();
  write.set_rate_limit(v1::RATE_LIMIT_WRITES);
  write.set_heavy_read(true);
  protos.AddRpc("HeavyWrite", "A", &write);
  auto read = protos.Read();
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("test.Fake.HeavyWrite"),
            std::string::npos)
      << read.status();
  EXPECT_NE(read.status().message().find("heavy_read"), std::string::npos)
      << read.status();

  FakeProtos fine;
  v1::RpcPolicy heavy = Complete();
  heavy.set_heavy_read(true);
  fine.AddRpc("HeavyRead", "A", &heavy);
  auto facts = fine.Read();
  ASSERT_TRUE(facts.ok()) << facts.status();
  EXPECT_TRUE(facts->all()[0].heavy_read);
}

TEST(RpcFacts, TwoRpcsOfAServiceMayNotShareARequestType) {
  FakeProtos protos;
  const v1::RpcPolicy good = Complete();
  protos.AddRpc("One", "A", &good);
  protos.AddRpc("Two", "A", &good);
  auto read = protos.Read();
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("test.Fake.Two"), std::string::npos)
      << read.status();
}

}  // namespace
}  // namespace mdc
