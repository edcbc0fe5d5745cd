// The mdc gRPC services started in-process, as userver's service tests do: a
// real grpc::Server on 127.0.0.1 (a free port) serving CollectorService,
// DeveloperService, DashboardService, AdminService and HealthService, built
// the way service/lifecycle/server.cc builds them (each over the
// repositories it uses) on a real, migrated test database; generated stubs
// as clients; accounts made through the repositories. ServiceTest is the
// GoogleTest fixture: one database and one stack per test suite.
//
// ServiceStack is thread-safe after construction (the stubs and the server
// are); Headers and Call are plain values and functions.
#ifndef MDC_TESTS_SUPPORT_SERVICE_STACK_H_
#define MDC_TESTS_SUPPORT_SERVICE_STACK_H_

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/server.h>
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "mdc/v1/admin.grpc.pb.h"
#include "mdc/v1/collector.grpc.pb.h"
#include "mdc/v1/dashboard.grpc.pb.h"
#include "mdc/v1/developer.grpc.pb.h"
#include "mdc/v1/export.grpc.pb.h"
#include "mdc/v1/health.grpc.pb.h"
#include "storage/pool.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc::testing {

// The metadata a call sends, as the gateway forwards it; empty values are
// not sent.
struct Headers {
  std::string authorization;      // authorization
  std::string current_timestamp;  // x-current-timestamp
  std::string current_timezone;   // x-current-timezone

  // These headers with the backtest clock set to `timestamp` (in `timezone`
  // when given).
  Headers At(std::string timestamp, std::string timezone = "") const;

  // Adds the headers to `context` as gRPC metadata.
  void ApplyTo(grpc::ClientContext& context) const;
};

// `authorization: Bearer <token>`.
Headers Bearer(absl::string_view token);
// No authorization at all.
Headers Anonymous();

// What a unary call answered.
template <typename Response>
struct Reply {
  grpc::Status status;
  Response response;
};

// How long a test waits for any one call: a hang fails the test instead of
// blocking the suite.
inline constexpr absl::Duration kCallDeadline = absl::Seconds(20);

// Calls `rpc` of `stub` with `headers`; for example
//   Call(stack.developer(), &v1::DeveloperService::Stub::GetList,
//        Bearer(token), request).
template <typename Stub, typename Request, typename Response>
Reply<Response> Call(Stub& stub,
                     grpc::Status (Stub::*rpc)(grpc::ClientContext*,
                                               const Request&, Response*),
                     const Headers& headers, const Request& request) {
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + kCallDeadline));
  headers.ApplyTo(context);
  Reply<Response> reply;
  reply.status = (stub.*rpc)(&context, request, &reply.response);
  return reply;
}

// The fields a google.rpc.BadRequest in the status's error details names,
// in order; empty when there is none.
std::vector<std::string> ViolatedFields(const grpc::Status& status);

class ServiceStack {
 public:
  // Serves over `pool`, which must hold a migrated database and outlive the
  // stack. Aborts the test program when the server cannot start.
  explicit ServiceStack(storage::ConnectionPool& pool);
  // Shuts the server down (calls in flight are cancelled).
  ~ServiceStack();

  ServiceStack(const ServiceStack&) = delete;
  ServiceStack& operator=(const ServiceStack&) = delete;

  // The repositories the services use, to set up and check stored data.
  storage::Repositories& repos();

  // Creates an account with `role` ("developer" or "admin") and a fresh
  // token, and returns the token. The username is `prefix` and a number
  // unique in the stack.
  std::string NewAccount(absl::string_view prefix, absl::string_view role);
  std::string NewDeveloper() { return NewAccount("dev", "developer"); }
  std::string NewAdmin() { return NewAccount("admin", "admin"); }

  v1::CollectorService::Stub& collector() { return *collector_; }
  v1::DeveloperService::Stub& developer() { return *developer_; }
  v1::DashboardService::Stub& dashboard() { return *dashboard_; }
  v1::AdminService::Stub& admin() { return *admin_; }
  v1::HealthService::Stub& health() { return *health_; }
  v1::ExportService::Stub& exports() { return *exports_; }

  int port() const { return port_; }

 private:
  struct Services;

  std::unique_ptr<Services> services_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::atomic<int> accounts_{0};
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::CollectorService::Stub> collector_;
  std::unique_ptr<v1::DeveloperService::Stub> developer_;
  std::unique_ptr<v1::DashboardService::Stub> dashboard_;
  std::unique_ptr<v1::AdminService::Stub> admin_;
  std::unique_ptr<v1::HealthService::Stub> health_;
  std::unique_ptr<v1::ExportService::Stub> exports_;
};

// A GoogleTest fixture: one fresh database and one ServiceStack per test
// suite, shared by its tests (each test makes the accounts it needs, so
// tests stay independent).
class ServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static ServiceStack& stack() { return *stack_; }
  static TestDatabase& db() { return *db_; }

 private:
  static inline TestDatabase* db_ = nullptr;
  static inline ServiceStack* stack_ = nullptr;
};

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_SERVICE_STACK_H_
