// THE RULE (service/replica/read_routing.h) covers every RPC the server
// serves, names no RPC that does not exist, and keeps writes, the caller's
// own data and every non-market service on the primary.
#include "service/replica/read_routing.h"

#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "mdc/v1/admin.pb.h"
#include "mdc/v1/collector.pb.h"
#include "mdc/v1/dashboard.pb.h"
#include "mdc/v1/developer.pb.h"
#include "mdc/v1/health.pb.h"
#include "mdc/v1/stream.pb.h"

namespace mdc {
namespace {

using google::protobuf::FileDescriptor;
using google::protobuf::MethodDescriptor;
using google::protobuf::ServiceDescriptor;

// Every method of every service of the mdc.v1 API files, found from their
// descriptors (a request message of each file links its file in).
std::vector<const MethodDescriptor*> AllMethods() {
  const std::vector<const FileDescriptor*> files = {
      v1::ListDevelopersRequest::descriptor()->file(),
      v1::SaveShortlistRequest::descriptor()->file(),
      v1::SignInRequest::descriptor()->file(),
      v1::GetListRequest::descriptor()->file(),
      v1::HealthCheckRequest::descriptor()->file(),
      v1::WatchQuotesRequest::descriptor()->file(),
  };
  std::vector<const MethodDescriptor*> methods;
  for (const FileDescriptor* file : files) {
    for (int s = 0; s < file->service_count(); ++s) {
      const ServiceDescriptor* service = file->service(s);
      for (int m = 0; m < service->method_count(); ++m) {
        methods.push_back(service->method(m));
      }
    }
  }
  return methods;
}

TEST(ReadRoutingTest, EveryRpcIsInTheTable) {
  const auto methods = AllMethods();
  ASSERT_GT(methods.size(), 40u);
  for (const MethodDescriptor* method : methods) {
    EXPECT_TRUE(
        ReadsFromOf(method->service()->full_name(), method->name()).has_value())
        << method->full_name()
        << " is missing from service/replica/read_routing.cc: decide whether "
           "its reads may lag (docs/architecture.md, \"Reads and the "
           "replica\")";
  }
}

TEST(ReadRoutingTest, EveryRowIsAnRpcOnce) {
  const auto methods = AllMethods();
  std::vector<std::string> seen;
  for (const ReadRoute& route : ReadRoutes()) {
    const std::string name = absl::StrCat(route.service, ".", route.method);
    bool exists = false;
    for (const MethodDescriptor* method : methods) {
      if (method->full_name() == name) exists = true;
    }
    EXPECT_TRUE(exists) << name << " is no RPC of the API";
    for (const std::string& before : seen) {
      EXPECT_NE(before, name) << name << " is in the table twice";
    }
    seen.push_back(name);
  }
}

TEST(ReadRoutingTest, OnlyDeveloperAndDashboardMarketReadsMayLag) {
  for (const ReadRoute& route : ReadRoutes()) {
    if (route.reads_from != ReadsFrom::kReplica) continue;
    EXPECT_TRUE(route.service == "mdc.v1.DeveloperService" ||
                route.service == "mdc.v1.DashboardService")
        << route.service << "." << route.method;
    // Reads only: no RPC that changes anything.
    for (absl::string_view verb : {"Save", "Create", "Update", "Delete", "Set",
                                   "Refresh", "Run", "SignIn"}) {
      EXPECT_FALSE(absl::StartsWith(route.method, verb))
          << route.service << "." << route.method;
    }
  }
}

TEST(ReadRoutingTest, WhatMustSeeTheCallersOwnWriteReadsThePrimary) {
  for (absl::string_view method :
       {"SignIn", "ListRuns", "ListRunTags", "ListOrders", "CreateRun"}) {
    EXPECT_EQ(ReadsFromOf("mdc.v1.DashboardService", method),
              ReadsFrom::kPrimary)
        << method;
  }
  EXPECT_EQ(ReadsFromOf("mdc.v1.DeveloperService", "GetBrokerToken"),
            ReadsFrom::kPrimary);
  EXPECT_EQ(ReadsFromOf("mdc.v1.AdminService", "ListHolidays"),
            ReadsFrom::kPrimary);
  EXPECT_EQ(ReadsFromOf("mdc.v1.StreamService", "ReplayDay"),
            ReadsFrom::kPrimary);
  EXPECT_EQ(ReadsFromOf("mdc.v1.DeveloperService", "GetQuote"),
            ReadsFrom::kReplica);
  EXPECT_EQ(ReadsFromOf("mdc.v1.DeveloperService", "NoSuchRpc"), std::nullopt);
}

}  // namespace
}  // namespace mdc
