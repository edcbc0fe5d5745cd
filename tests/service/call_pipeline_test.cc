// The order of answers of the synchronous call pipeline (CallRunner::Run),
// through the real gRPC services in-process: who may call is settled first
// (a missing, malformed or unknown token is UNAUTHENTICATED, a developer
// token on an admin RPC PERMISSION_DENIED, whatever else is wrong), then the
// X-Current-* headers (INVALID_ARGUMENT naming the header), then the request
// (INVALID_ARGUMENT with a google.rpc.BadRequest naming the field); and a
// read never reaches at or past the backtest clock (docs/api.md 1 and 9.3).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "domain/tokens.h"
#include "tests/support/collector_requests.h"
#include "tests/support/service_stack.h"

namespace mdc::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A day no test of this suite stores anything on: valid reads of it are
// NOT_FOUND.
constexpr char kEmptyDay[] = "2001-01-02T10:00:00";

// One synchronous RPC, with a valid request and one that gets `bad_field`
// wrong.
struct SyncRpc {
  std::string name;
  bool admin_only;
  // Sends the valid request, or the invalid one, with `headers`.
  std::function<grpc::Status(const Headers& headers, bool valid)> send;
  std::string bad_field;
  // The answer to the valid request from an authorised caller.
  grpc::StatusCode valid_code;
};

// Developer, dashboard and admin RPCs that run through CallRunner::Run.
std::vector<SyncRpc> SyncRpcs(ServiceStack& stack) {
  return {
      {"DeveloperService.GetList", false,
       [&stack](const Headers& headers, bool valid) {
         v1::GetListRequest request;
         request.set_type(valid ? "TOP_GAINERS" : "SIDEWAYS");
         request.set_datetime(kEmptyDay);
         return Call(stack.developer(), &v1::DeveloperService::Stub::GetList,
                     headers, request)
             .status;
       },
       "type", grpc::StatusCode::NOT_FOUND},
      {"DeveloperService.GetQuote", false,
       [&stack](const Headers& headers, bool valid) {
         v1::GetQuoteRequest request;
         request.set_symbol(valid ? "INFY" : "");
         request.set_datetime(kEmptyDay);
         return Call(stack.developer(), &v1::DeveloperService::Stub::GetQuote,
                     headers, request)
             .status;
       },
       "symbol", grpc::StatusCode::NOT_FOUND},
      {"DashboardService.ListRuns", false,
       [&stack](const Headers& headers, bool valid) {
         v1::ListRunsRequest request;
         if (!valid) request.set_page_size(-1);
         return Call(stack.dashboard(), &v1::DashboardService::Stub::ListRuns,
                     headers, request)
             .status;
       },
       "pageSize", grpc::StatusCode::OK},
      {"AdminService.ListDevelopers", true,
       [&stack](const Headers& headers, bool valid) {
         v1::ListDevelopersRequest request;
         if (!valid) request.set_page_size(-1);
         return Call(stack.admin(), &v1::AdminService::Stub::ListDevelopers,
                     headers, request)
             .status;
       },
       "pageSize", grpc::StatusCode::OK},
  };
}

// Authorization values refused before any lookup: absent, another scheme,
// no token, a token too long to be one.
std::vector<Headers> MalformedAuthorizations() {
  return {
      Anonymous(),       Headers{"Token abc"},  Headers{"Basic dXNlcjpwYXNz"},
      Headers{"Bearer"}, Headers{"Bearer    "}, Bearer(std::string(513, 'a'))};
}

class CallPipelineTest : public ServiceTest {
 protected:
  // A developer and an admin of this suite.
  static void SetUpTestSuite() {
    ServiceTest::SetUpTestSuite();
    developer_ = new std::string(stack().NewDeveloper());
    admin_ = new std::string(stack().NewAdmin());
  }
  static void TearDownTestSuite() {
    delete developer_;
    delete admin_;
    ServiceTest::TearDownTestSuite();
  }

  // A token entitled to call `rpc`.
  static const std::string& Entitled(const SyncRpc& rpc) {
    return rpc.admin_only ? *admin_ : *developer_;
  }

  static inline std::string* developer_ = nullptr;
  static inline std::string* admin_ = nullptr;
};

// The baseline the other tests depart from: with an entitled token and
// nothing wrong, each RPC answers its usual answer.
TEST_F(CallPipelineTest, ValidRequestFromAnEntitledCallerIsAnswered) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    SCOPED_TRACE(rpc.name);
    const grpc::Status status = rpc.send(Bearer(Entitled(rpc)), true);
    EXPECT_EQ(status.error_code(), rpc.valid_code) << status.error_message();
  }
}

TEST_F(CallPipelineTest, MissingOrMalformedAuthorizationIs401EvenIfAllIsBad) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    for (const Headers& headers : MalformedAuthorizations()) {
      SCOPED_TRACE(rpc.name + " with authorization '" +
                   headers.authorization.substr(0, 20) + "'");
      for (const bool valid : {true, false}) {
        const grpc::Status status = rpc.send(headers, valid);
        EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
            << status.error_message();
      }
      // A bad clock header too: still 401.
      const grpc::Status status =
          rpc.send(headers.At("2025-13-45T10:00:00"), false);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << status.error_message();
    }
  }
  // The message says what to send.
  const grpc::Status missing = SyncRpcs(stack())[0].send(Anonymous(), false);
  EXPECT_THAT(missing.error_message(), HasSubstr("Authorization"));
}

TEST_F(CallPipelineTest, UnknownTokenIs401BeforeABadRequestOrHeader) {
  const Headers unknown = Bearer(domain::GenerateToken());
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    SCOPED_TRACE(rpc.name);
    for (const Headers& headers :
         {unknown, unknown.At("2025-13-45T10:00:00"),
          unknown.At("2025-01-07T10:00:00", "Mars/Olympus")}) {
      const grpc::Status status = rpc.send(headers, false);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << status.error_message();
      EXPECT_TRUE(ViolatedFields(status).empty());
    }
  }
}

// Checked by CallRunner before the handler runs, so the request's own
// problems are not even looked at.
TEST_F(CallPipelineTest, BadClockHeaderIs400NamingItBeforeTheRequest) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    if (rpc.admin_only) continue;  // The clock is a developer/dashboard rule.
    SCOPED_TRACE(rpc.name);
    const Headers headers = Bearer(Entitled(rpc));
    for (const bool valid : {true, false}) {
      const grpc::Status bad_timestamp =
          rpc.send(headers.At("2025-02-30T10:00:00"), valid);
      EXPECT_EQ(bad_timestamp.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_THAT(bad_timestamp.error_message(),
                  HasSubstr("X-Current-Timestamp"));
      EXPECT_THAT(ViolatedFields(bad_timestamp),
                  ElementsAre("X-Current-Timestamp"));

      const grpc::Status bad_zone =
          rpc.send(headers.At("2025-01-07T10:00:00", "Mars/Olympus"), valid);
      EXPECT_EQ(bad_zone.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
      EXPECT_THAT(ViolatedFields(bad_zone), ElementsAre("X-Current-Timezone"));
    }
  }
}

TEST_F(CallPipelineTest, InvalidRequestIs400WithAViolationNamingTheField) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    SCOPED_TRACE(rpc.name);
    const grpc::Status status = rpc.send(Bearer(Entitled(rpc)), false);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr(rpc.bad_field));
    EXPECT_THAT(ViolatedFields(status), ElementsAre(rpc.bad_field));
  }
}

TEST_F(CallPipelineTest, DeveloperTokenOnAnAdminRpcIs403BeforeAnythingElse) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    if (!rpc.admin_only) continue;
    SCOPED_TRACE(rpc.name);
    const Headers developer = Bearer(*developer_);
    for (const Headers& headers :
         {developer, developer.At("2025-13-45T10:00:00")}) {
      for (const bool valid : {true, false}) {
        const grpc::Status status = rpc.send(headers, valid);
        EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << status.error_message();
        EXPECT_TRUE(ViolatedFields(status).empty());
      }
    }
  }
}

// docs/api.md 1: "an admin token is accepted wherever a developer token is"
// (Authenticator::Authenticate checks the role only on admin RPCs).
TEST_F(CallPipelineTest, AdminTokenIsAcceptedOnDeveloperRpcs) {
  for (const SyncRpc& rpc : SyncRpcs(stack())) {
    if (rpc.admin_only) continue;
    SCOPED_TRACE(rpc.name);
    const grpc::Status valid = rpc.send(Bearer(*admin_), true);
    EXPECT_EQ(valid.error_code(), rpc.valid_code) << valid.error_message();
    const grpc::Status invalid = rpc.send(Bearer(*admin_), false);
    EXPECT_EQ(invalid.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(ViolatedFields(invalid), ElementsAre(rpc.bad_field));
  }
}

TEST_F(CallPipelineTest, PublicRpcNeedsNoToken) {
  for (const Headers& headers :
       {Anonymous(), Headers{"Token abc"}, Bearer(domain::GenerateToken())}) {
    auto reply = Call(stack().health(), &v1::HealthService::Stub::Check,
                      headers, v1::HealthCheckRequest());
    EXPECT_TRUE(reply.status.ok()) << reply.status.error_message();
    EXPECT_EQ(reply.response.status(), v1::HealthCheckResponse::SERVING);
  }
}

// An as-of read asking for an instant at or after the clock is 403 naming
// both; just before it, the read goes ahead (NOT_FOUND: nothing stored).
TEST_F(CallPipelineTest, AsOfReadAtOrAfterTheBacktestClockIs403) {
  const Headers developer = Bearer(*developer_);
  // 10:00 IST, once in the default zone and once as UTC.
  for (const Headers& clock : {developer.At("2001-01-02T10:00:00"),
                               developer.At("2001-01-02T04:30:00", "UTC")}) {
    SCOPED_TRACE(clock.current_timestamp + " " + clock.current_timezone);
    for (const char* datetime : {"2001-01-02T10:00:00", "2001-01-02T10:00:01",
                                 "2001-01-03T09:00:00"}) {
      SCOPED_TRACE(datetime);
      v1::GetListRequest list;
      list.set_type("TOP_GAINERS");
      list.set_datetime(datetime);
      const grpc::Status list_status =
          Call(stack().developer(), &v1::DeveloperService::Stub::GetList, clock,
               list)
              .status;
      EXPECT_EQ(list_status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
          << list_status.error_message();
      EXPECT_THAT(list_status.error_message(), HasSubstr("datetime"));
      EXPECT_THAT(list_status.error_message(),
                  HasSubstr("X-Current-Timestamp"));

      v1::GetQuoteRequest quote;
      quote.set_symbol("INFY");
      quote.set_datetime(datetime);
      const grpc::Status quote_status =
          Call(stack().developer(), &v1::DeveloperService::Stub::GetQuote,
               clock, quote)
              .status;
      EXPECT_EQ(quote_status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
          << quote_status.error_message();
    }
    v1::GetListRequest before;
    before.set_type("TOP_GAINERS");
    before.set_datetime("2001-01-02T09:59:59");
    const grpc::Status status =
        Call(stack().developer(), &v1::DeveloperService::Stub::GetList, clock,
             before)
            .status;
    EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND)
        << status.error_message();
  }
}

// A record stamped at the clock is already "the future": reads that default
// to now see only what came strictly before it.
TEST_F(CallPipelineTest, ReadsNeverReturnDataStampedAtOrAfterTheClock) {
  const Headers developer = Bearer(*developer_);
  const std::string stamped = "2025-01-07T10:00:00";
  ASSERT_TRUE(Call(stack().collector(),
                   &v1::CollectorService::Stub::SaveShortlist, developer,
                   ShortlistRequest(stamped))
                  .status.ok());

  v1::GetListRequest latest;  // As of now: the clock when set.
  latest.set_type("TOP_GAINERS");
  const grpc::Status at_clock =
      Call(stack().developer(), &v1::DeveloperService::Stub::GetList,
           developer.At(stamped), latest)
          .status;
  EXPECT_EQ(at_clock.error_code(), grpc::StatusCode::NOT_FOUND)
      << at_clock.error_message();

  v1::GetListRequest as_of_stamp = latest;
  as_of_stamp.set_datetime(stamped);
  for (const v1::GetListRequest& request : {latest, as_of_stamp}) {
    SCOPED_TRACE(request.ShortDebugString());
    auto after = Call(stack().developer(), &v1::DeveloperService::Stub::GetList,
                      developer.At("2025-01-07T10:00:01"), request);
    ASSERT_TRUE(after.status.ok()) << after.status.error_message();
    EXPECT_EQ(after.response.timestamp().seconds(),
              absl::ToUnixSeconds(IstInstant(stamped)));
    ASSERT_EQ(after.response.entries_size(), 1);
    EXPECT_EQ(after.response.entries(0).nse_symbol(), "INFY");
  }
}

}  // namespace
}  // namespace mdc::testing
