// The order of answers of the asynchronous collector writes
// (CallRunner::StartWrite: SaveShortlist, SaveNifty, SaveQuotes), through
// the real gRPC services in-process. They authenticate in the statement that
// writes, yet answer as the synchronous pipeline does: a missing or
// malformed token is UNAUTHENTICATED at once, an unknown one is
// UNAUTHENTICATED before any INVALID_ARGUMENT (and writes nothing), a bad
// X-Current-* header is INVALID_ARGUMENT before the body is looked at, a bad
// body names its field, and a valid write is stored (read back through
// DeveloperService) before it is answered OK.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <ostream>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "domain/tokens.h"
#include "tests/support/collector_requests.h"
#include "tests/support/service_stack.h"

namespace mdc::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

enum class Write { kShortlist, kNifty, kQuotes };

std::string RpcName(Write write) {
  switch (write) {
    case Write::kShortlist:
      return "SaveShortlist";
    case Write::kNifty:
      return "SaveNifty";
    case Write::kQuotes:
      return "SaveQuotes";
  }
  return "Unknown";
}

void PrintTo(Write write, std::ostream* os) { *os << RpcName(write); }

enum class Body {
  kValid,
  kInvalid,  // one bad field: BadField(write)
  kNoData,   // no "data" at all
};

// The field the kInvalid body of `write` gets wrong.
std::string BadField(Write write) {
  switch (write) {
    case Write::kShortlist:
      return "data.entries[0].price";
    case Write::kNifty:
      return "data.dayChangePerc";
    case Write::kQuotes:
      return "data.quotes[0].nseSymbol";
  }
  return "";
}

// Sends `write` of an observation at `timestamp` (Asia/Kolkata).
grpc::Status SendWrite(ServiceStack& stack, Write write, const Headers& headers,
                       const std::string& timestamp, Body body) {
  switch (write) {
    case Write::kShortlist: {
      v1::SaveShortlistRequest request = ShortlistRequest(timestamp);
      if (body == Body::kInvalid) {
        request.mutable_data()->mutable_entries(0)->set_price(-1);
      }
      if (body == Body::kNoData) request.clear_data();
      return Call(stack.collector(), &v1::CollectorService::Stub::SaveShortlist,
                  headers, request)
          .status;
    }
    case Write::kNifty: {
      v1::SaveNiftyRequest request = NiftyRequest(timestamp);
      if (body == Body::kInvalid) {
        request.mutable_data()->clear_day_change_perc();
      }
      if (body == Body::kNoData) request.clear_data();
      return Call(stack.collector(), &v1::CollectorService::Stub::SaveNifty,
                  headers, request)
          .status;
    }
    case Write::kQuotes: {
      v1::SaveQuotesRequest request = QuotesRequest(timestamp);
      if (body == Body::kInvalid) {
        request.mutable_data()->mutable_quotes(0)->set_nse_symbol("");
      }
      if (body == Body::kNoData) request.clear_data();
      return Call(stack.collector(), &v1::CollectorService::Stub::SaveQuotes,
                  headers, request)
          .status;
    }
  }
  return grpc::Status(grpc::StatusCode::INTERNAL, "unknown write");
}

// Reads back, as of `timestamp`, what a valid `write` at `timestamp` stores:
// OK (having checked it is that observation) or the read's error, NOT_FOUND
// when nothing was stored that day.
grpc::Status ReadWritten(ServiceStack& stack, Write write,
                         const Headers& headers, const std::string& timestamp) {
  const int64_t stamped = absl::ToUnixSeconds(IstInstant(timestamp));
  switch (write) {
    case Write::kShortlist: {
      v1::GetListRequest request;
      request.set_type("TOP_GAINERS");
      request.set_datetime(timestamp);
      auto reply = Call(stack.developer(), &v1::DeveloperService::Stub::GetList,
                        headers, request);
      if (!reply.status.ok()) return reply.status;
      EXPECT_EQ(reply.response.timestamp().seconds(), stamped);
      EXPECT_EQ(reply.response.shortlist_type(), v1::TOP_GAINERS);
      EXPECT_EQ(reply.response.scope(), v1::TOP_5);
      const v1::ShortlistEntry sent =
          ShortlistRequest(timestamp).data().entries(0);
      EXPECT_EQ(reply.response.entries_size(), 1);
      if (reply.response.entries_size() == 1) {
        EXPECT_EQ(reply.response.entries(0).nse_symbol(), sent.nse_symbol());
        EXPECT_EQ(reply.response.entries(0).name(), sent.name());
        EXPECT_EQ(reply.response.entries(0).price(), sent.price());
      }
      return reply.status;
    }
    case Write::kNifty: {
      v1::GetNiftyRequest request;
      request.set_datetime(timestamp);
      auto reply =
          Call(stack.developer(), &v1::DeveloperService::Stub::GetNifty,
               headers, request);
      if (!reply.status.ok()) return reply.status;
      const v1::NiftyData sent = NiftyRequest(timestamp).data();
      EXPECT_EQ(reply.response.timestamp().seconds(), stamped);
      EXPECT_EQ(reply.response.day_change_perc(), sent.day_change_perc());
      EXPECT_EQ(reply.response.quote_data().payload().last_price(),
                sent.quote_data().payload().last_price());
      return reply.status;
    }
    case Write::kQuotes: {
      const v1::QuoteItem sent = QuotesRequest(timestamp).data().quotes(0);
      v1::GetQuoteRequest request;
      request.set_symbol(sent.nse_symbol());
      request.set_datetime(timestamp);
      auto reply =
          Call(stack.developer(), &v1::DeveloperService::Stub::GetQuote,
               headers, request);
      if (!reply.status.ok()) return reply.status;
      EXPECT_EQ(reply.response.timestamp().seconds(), stamped);
      EXPECT_EQ(reply.response.nse_symbol(), sent.nse_symbol());
      EXPECT_EQ(reply.response.quote_data().status(), v1::SUCCESS);
      EXPECT_EQ(reply.response.quote_data().payload().last_price(),
                sent.quote_data().payload().last_price());
      return reply.status;
    }
  }
  return grpc::Status(grpc::StatusCode::INTERNAL, "unknown write");
}

class CollectorWritePipelineTest : public ServiceTest,
                                   public ::testing::WithParamInterface<Write> {
 protected:
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

  // 10:00 IST on a day no other call of the suite has used, so as-of reads
  // of it see only what this test wrote.
  static std::string FreshTimestamp() {
    const absl::CivilDay day = absl::CivilDay(2024, 1, 1) + days_used_++;
    return absl::StrFormat("%04d-%02d-%02dT10:00:00", day.year(), day.month(),
                           day.day());
  }

  grpc::Status Save(const Headers& headers, const std::string& timestamp,
                    Body body) {
    return SendWrite(stack(), GetParam(), headers, timestamp, body);
  }
  grpc::Status ReadBack(const std::string& timestamp) {
    return ReadWritten(stack(), GetParam(), Bearer(*developer_), timestamp);
  }

  static inline std::string* developer_ = nullptr;
  static inline std::string* admin_ = nullptr;
  static inline std::atomic<int> days_used_{0};
};

TEST_P(CollectorWritePipelineTest, ValidWriteIsStoredAndAnsweredOk) {
  const std::string timestamp = FreshTimestamp();
  EXPECT_EQ(ReadBack(timestamp).error_code(), grpc::StatusCode::NOT_FOUND);
  const grpc::Status saved = Save(Bearer(*developer_), timestamp, Body::kValid);
  ASSERT_TRUE(saved.ok()) << saved.error_message();
  const grpc::Status read = ReadBack(timestamp);
  EXPECT_TRUE(read.ok()) << read.error_message();
}

// docs/api.md 1: an admin token is accepted wherever a developer token is.
TEST_P(CollectorWritePipelineTest, AdminTokenMayWrite) {
  const std::string timestamp = FreshTimestamp();
  const grpc::Status saved = Save(Bearer(*admin_), timestamp, Body::kValid);
  ASSERT_TRUE(saved.ok()) << saved.error_message();
  const grpc::Status read = ReadBack(timestamp);
  EXPECT_TRUE(read.ok()) << read.error_message();
}

TEST_P(CollectorWritePipelineTest,
       MissingOrMalformedAuthorizationIs401EvenIfAllIsBad) {
  const std::string timestamp = FreshTimestamp();
  for (const Headers& headers :
       {Anonymous(), Headers{"Token abc"}, Headers{"Bearer"},
        Headers{"Bearer    "}, Bearer(std::string(513, 'a'))}) {
    SCOPED_TRACE("authorization '" + headers.authorization.substr(0, 20) + "'");
    for (const Body body : {Body::kValid, Body::kInvalid, Body::kNoData}) {
      const grpc::Status status = Save(headers, timestamp, body);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << status.error_message();
    }
    const grpc::Status status =
        Save(headers.At("2025-13-45T10:00:00"), timestamp, Body::kInvalid);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
        << status.error_message();
  }
  EXPECT_THAT(Save(Anonymous(), timestamp, Body::kValid).error_message(),
              HasSubstr("Authorization"));
  EXPECT_EQ(ReadBack(timestamp).error_code(), grpc::StatusCode::NOT_FOUND);
}

// The invalid request has nothing to write, so its token is looked up on
// its own (asynchronously) to answer 401 rather than 400.
TEST_P(CollectorWritePipelineTest, UnknownTokenIs401BeforeABadBodyOrHeader) {
  const std::string timestamp = FreshTimestamp();
  const Headers unknown = Bearer(domain::GenerateToken());
  for (const Body body : {Body::kInvalid, Body::kNoData}) {
    const grpc::Status status = Save(unknown, timestamp, body);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
        << status.error_message();
    EXPECT_THAT(ViolatedFields(status), IsEmpty());
  }
  for (const Headers& headers :
       {unknown.At("2025-13-45T10:00:00"),
        unknown.At("2025-01-07T10:00:00", "Mars/Olympus")}) {
    for (const Body body : {Body::kValid, Body::kInvalid}) {
      const grpc::Status status = Save(headers, timestamp, body);
      EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
          << status.error_message();
    }
  }
}

// The valid request is written by one statement that also authenticates:
// an unknown token finds no writer, so nothing is stored.
TEST_P(CollectorWritePipelineTest, UnknownTokenIs401AndWritesNothing) {
  const std::string timestamp = FreshTimestamp();
  const grpc::Status status =
      Save(Bearer(domain::GenerateToken()), timestamp, Body::kValid);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << status.error_message();
  EXPECT_EQ(ReadBack(timestamp).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_P(CollectorWritePipelineTest, BadClockHeaderIs400NamingItBeforeTheBody) {
  const std::string timestamp = FreshTimestamp();
  const Headers developer = Bearer(*developer_);
  for (const Body body : {Body::kValid, Body::kInvalid, Body::kNoData}) {
    const grpc::Status bad_timestamp =
        Save(developer.At("2025-02-30T10:00:00"), timestamp, body);
    EXPECT_EQ(bad_timestamp.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(bad_timestamp.error_message(),
                HasSubstr("X-Current-Timestamp"));
    EXPECT_THAT(ViolatedFields(bad_timestamp),
                ElementsAre("X-Current-Timestamp"));

    const grpc::Status bad_zone = Save(
        developer.At("2025-01-07T10:00:00", "Mars/Olympus"), timestamp, body);
    EXPECT_EQ(bad_zone.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(ViolatedFields(bad_zone), ElementsAre("X-Current-Timezone"));
  }
  EXPECT_EQ(ReadBack(timestamp).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_P(CollectorWritePipelineTest, InvalidBodyIs400WithAViolationNamingIt) {
  const std::string timestamp = FreshTimestamp();
  for (const std::string& token : {*developer_, *admin_}) {
    const grpc::Status invalid = Save(Bearer(token), timestamp, Body::kInvalid);
    EXPECT_EQ(invalid.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(invalid.error_message(), HasSubstr(BadField(GetParam())));
    EXPECT_THAT(ViolatedFields(invalid), ElementsAre(BadField(GetParam())));

    const grpc::Status no_data = Save(Bearer(token), timestamp, Body::kNoData);
    EXPECT_EQ(no_data.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(ViolatedFields(no_data), ElementsAre("data"));
  }
  EXPECT_EQ(ReadBack(timestamp).error_code(), grpc::StatusCode::NOT_FOUND);
}

INSTANTIATE_TEST_SUITE_P(CollectorWrites, CollectorWritePipelineTest,
                         ::testing::Values(Write::kShortlist, Write::kNifty,
                                           Write::kQuotes),
                         [](const ::testing::TestParamInfo<Write>& info) {
                           return RpcName(info.param);
                         });

}  // namespace
}  // namespace mdc::testing
