// Error reasons (AIP-193 ErrorInfo) on absl::Status, alone and beside a
// BadRequest, and the google.rpc.Status the service sends for them.
#include "domain/error_reason.h"

#include <gtest/gtest.h>

#include <string>

#include "domain/backtest_clock.h"
#include "domain/field_errors.h"
#include "domain/time.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::domain {
namespace {

google::rpc::ErrorInfo InfoOf(const absl::Status& status) {
  google::rpc::ErrorInfo info;
  auto payload = status.GetPayload(kErrorInfoTypeUrl);
  EXPECT_TRUE(payload.has_value()) << status;
  if (payload.has_value()) info.ParseFromString(std::string(*payload));
  return info;
}

TEST(WithReason, AttachesAnErrorInfoOfTheServiceDomain) {
  const absl::Status status = WithReason(
      absl::FailedPreconditionError("the last admin"), reason::kLastAdmin);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "the last admin");
  EXPECT_EQ(ReasonOf(status), "LAST_ADMIN");
  const auto info = InfoOf(status);
  EXPECT_EQ(info.reason(), "LAST_ADMIN");
  EXPECT_EQ(info.domain(), "mdc.v1");
  EXPECT_TRUE(info.metadata().empty());
}

TEST(WithReason, CarriesMetadata) {
  const auto info = InfoOf(WithReason(absl::AlreadyExistsError("taken"),
                                      reason::kHolidayExists,
                                      {{"dates", "2025-10-02,2025-12-25"}}));
  ASSERT_EQ(info.metadata().size(), 1u);
  EXPECT_EQ(info.metadata().at("dates"), "2025-10-02,2025-12-25");
}

TEST(WithReason, KeepsTheBadRequestAndCombinesWithIt) {
  FieldErrors errors;
  errors.Add("username", "must be 1-64 characters");
  const absl::Status status = WithReason(errors.ToStatus(), "SOME_REASON");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(status.GetPayload(kBadRequestTypeUrl).has_value());
  EXPECT_EQ(ReasonOf(status), "SOME_REASON");
}

TEST(WithReason, ASecondReasonReplacesTheFirst) {
  const absl::Status status = WithReason(
      WithReason(absl::UnavailableError("down"), reason::kBrokerUnavailable),
      reason::kBrokerNotConfigured);
  EXPECT_EQ(ReasonOf(status), "BROKER_NOT_CONFIGURED");
  EXPECT_TRUE(InfoOf(status).metadata().empty());
}

TEST(WithReason, LeavesOkAlone) {
  EXPECT_TRUE(WithReason(absl::OkStatus(), reason::kLastAdmin).ok());
  EXPECT_EQ(ReasonOf(absl::OkStatus()), "");
}

TEST(ReasonOf, IsEmptyWithoutAReason) {
  EXPECT_EQ(ReasonOf(absl::NotFoundError("no developer")), "");
  EXPECT_EQ(ReasonOf(InvalidField("id", "must be a number")), "");
}

TEST(Reasons, AreUpperSnakeCase) {
  for (absl::string_view r :
       {reason::kFutureRead, reason::kLastAdmin, reason::kUsernameTaken,
        reason::kHolidayExists, reason::kSecretKeyNotConfigured,
        reason::kSignInThrottled, reason::kBrokerNotConfigured,
        reason::kBrokerUnavailable, reason::kRateLimited,
        reason::kDatabaseTimeout}) {
    ASSERT_FALSE(r.empty());
    EXPECT_LE(r.size(), 63u) << r;  // AIP-193: at most 63 characters
    EXPECT_TRUE(r.front() >= 'A' && r.front() <= 'Z') << r;
    for (char c : r) {
      EXPECT_TRUE((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')
          << r;
    }
  }
}

TEST(ToRpcStatus, WithoutPayloadsHasNoDetails) {
  const auto rpc = ToRpcStatus(absl::NotFoundError("run not found"));
  EXPECT_EQ(rpc.code(), static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_EQ(rpc.message(), "run not found");
  EXPECT_TRUE(rpc.details().empty());
}

TEST(ToRpcStatus, BadRequestAloneIsTheOnlyDetail) {
  const auto rpc = ToRpcStatus(InvalidField("pageSize", "must be 1-1000"));
  EXPECT_EQ(rpc.code(), static_cast<int>(absl::StatusCode::kInvalidArgument));
  ASSERT_EQ(rpc.details_size(), 1);
  EXPECT_EQ(rpc.details(0).type_url(), kBadRequestTypeUrl);
  google::rpc::BadRequest bad;
  ASSERT_TRUE(rpc.details(0).UnpackTo(&bad));
  ASSERT_EQ(bad.field_violations_size(), 1);
  EXPECT_EQ(bad.field_violations(0).field(), "pageSize");
}

TEST(ToRpcStatus, ReasonAloneIsAnErrorInfo) {
  const auto rpc = ToRpcStatus(
      WithReason(absl::AlreadyExistsError("username is already taken"),
                 reason::kUsernameTaken));
  EXPECT_EQ(rpc.code(), static_cast<int>(absl::StatusCode::kAlreadyExists));
  EXPECT_EQ(rpc.message(), "username is already taken");
  ASSERT_EQ(rpc.details_size(), 1);
  EXPECT_EQ(rpc.details(0).type_url(), kErrorInfoTypeUrl);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(rpc.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "USERNAME_TAKEN");
  EXPECT_EQ(info.domain(), "mdc.v1");
}

TEST(ToRpcStatus, BadRequestFirstThenErrorInfo) {
  FieldErrors errors;
  errors.Add("apiKey", "is required");
  errors.Add("apiSecret", "is required");
  const auto rpc = ToRpcStatus(WithReason(errors.ToStatus(), "SOME_REASON"));
  ASSERT_EQ(rpc.details_size(), 2);
  google::rpc::BadRequest bad;
  ASSERT_TRUE(rpc.details(0).UnpackTo(&bad));
  EXPECT_EQ(bad.field_violations_size(), 2);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(rpc.details(1).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "SOME_REASON");
}

// The backtest clock's refusal is the reason's main user: a 403 that a
// backtest must tell apart from a missing role.
TEST(BacktestClockReason, FutureReadNamesTheFieldAndTheClock) {
  const BacktestClock clock(*ParseInstant("2025-03-03T10:00:00", "UTC"));
  const absl::Status refused = clock.CheckBefore(
      *ParseInstant("2025-03-03T10:00:00", "UTC"), "datetime");
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ReasonOf(refused), "FUTURE_READ");
  const auto info = InfoOf(refused);
  EXPECT_EQ(info.metadata().at("field"), "datetime");
  EXPECT_EQ(info.metadata().at("backtestClock"), "2025-03-03T10:00:00Z");
  EXPECT_TRUE(
      clock.CheckBefore(*ParseInstant("2025-03-03T09:59:59", "UTC"), "datetime")
          .ok());
}

}  // namespace
}  // namespace mdc::domain
