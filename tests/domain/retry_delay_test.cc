// google.rpc.RetryInfo on absl::Status (domain/error_reason.h): how a
// refusal tells the client when to send the call again, and where it goes
// among the details the service sends.
#include <gtest/gtest.h>

#include "domain/error_reason.h"
#include "google/rpc/error_details.pb.h"

namespace mdc::domain {
namespace {

TEST(WithRetryDelay, RoundTripsTheDelay) {
  const absl::Status status =
      WithRetryDelay(absl::ResourceExhaustedError("slow down"),
                     absl::Seconds(2) + absl::Milliseconds(250));
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(status.message(), "slow down");
  EXPECT_EQ(RetryDelayOf(status), absl::Seconds(2) + absl::Milliseconds(250));
}

TEST(WithRetryDelay, NegativeIsZeroAndASecondReplacesTheFirst) {
  absl::Status status =
      WithRetryDelay(absl::ResourceExhaustedError("x"), -absl::Seconds(1));
  EXPECT_EQ(RetryDelayOf(status), absl::ZeroDuration());
  status = WithRetryDelay(status, absl::Milliseconds(5));
  EXPECT_EQ(RetryDelayOf(status), absl::Milliseconds(5));
}

TEST(WithRetryDelay, LeavesOkAloneAndIsAbsentByDefault) {
  EXPECT_TRUE(WithRetryDelay(absl::OkStatus(), absl::Seconds(1)).ok());
  EXPECT_EQ(RetryDelayOf(absl::OkStatus()), std::nullopt);
  EXPECT_EQ(RetryDelayOf(absl::UnavailableError("down")), std::nullopt);
}

TEST(ToRpcStatus, ErrorInfoThenRetryInfo) {
  const absl::Status status =
      WithRetryDelay(WithReason(absl::ResourceExhaustedError("too many reads"),
                                reason::kRateLimited, {{"limit", "reads"}}),
                     absl::Milliseconds(1500));
  const auto rpc = ToRpcStatus(status);
  EXPECT_EQ(rpc.code(), static_cast<int>(absl::StatusCode::kResourceExhausted));
  ASSERT_EQ(rpc.details_size(), 2);
  google::rpc::ErrorInfo info;
  ASSERT_TRUE(rpc.details(0).UnpackTo(&info));
  EXPECT_EQ(info.reason(), "RATE_LIMITED");
  EXPECT_EQ(info.metadata().at("limit"), "reads");
  EXPECT_EQ(rpc.details(1).type_url(), kRetryInfoTypeUrl);
  google::rpc::RetryInfo retry;
  ASSERT_TRUE(rpc.details(1).UnpackTo(&retry));
  EXPECT_EQ(retry.retry_delay().seconds(), 1);
  EXPECT_EQ(retry.retry_delay().nanos(), 500'000'000);
}

}  // namespace
}  // namespace mdc::domain
