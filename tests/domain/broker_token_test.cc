#include "domain/broker_token.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include "domain/time.h"

namespace mdc::domain {
namespace {

absl::Time Ist(const char* wall_clock) {
  return *ParseInstant(wall_clock, "Asia/Kolkata");
}

TEST(BrokerTokenExpiry, IsTheNextSixOClockIst) {
  EXPECT_EQ(BrokerTokenExpiry(Ist("2025-03-03T09:00:00")),
            Ist("2025-03-04T06:00:00"));
  EXPECT_EQ(BrokerTokenExpiry(Ist("2025-03-03T05:59:59")),
            Ist("2025-03-03T06:00:00"));
  EXPECT_EQ(BrokerTokenExpiry(Ist("2025-03-03T06:00:00")),
            Ist("2025-03-04T06:00:00"));
  EXPECT_EQ(BrokerTokenExpiry(Ist("2025-03-31T23:59:00")),
            Ist("2025-04-01T06:00:00"));
}

TEST(BrokerTokenUsable, NeedsAMinuteLeft) {
  const absl::Time expiry = Ist("2025-03-04T06:00:00");
  EXPECT_TRUE(BrokerTokenUsable(expiry, Ist("2025-03-04T05:58:59")));
  EXPECT_FALSE(BrokerTokenUsable(expiry, Ist("2025-03-04T05:59:00")));
  EXPECT_FALSE(BrokerTokenUsable(expiry, Ist("2025-03-04T07:00:00")));
}

TEST(BrokerTokenRequestBody, EscapesCredentials) {
  const std::string body = BrokerTokenRequestBody("k\"ey", "se\\cret");
  google::protobuf::Struct parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(body, &parsed).ok())
      << body;
  EXPECT_EQ(parsed.fields().at("api_key").string_value(), "k\"ey");
  EXPECT_EQ(parsed.fields().at("api_secret").string_value(), "se\\cret");
}

TEST(ParseBrokerTokenResponse, ReadsTheAccessToken) {
  auto token = ParseBrokerTokenResponse(
      R"({"access_token":"abc123","token_type":"bearer","expires_in":3600})");
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_EQ(*token, "abc123");
}

TEST(ParseBrokerTokenResponse, RejectsMalformedAnswers) {
  for (const char* bad : {"", "not json", "[]", "{}", R"({"access_token":""})",
                          R"({"access_token":42})", R"({"token":"x"})",
                          R"({"access_token":"x")"}) {
    auto token = ParseBrokerTokenResponse(bad);
    EXPECT_EQ(token.status().code(), absl::StatusCode::kUnavailable) << bad;
  }
}

}  // namespace
}  // namespace mdc::domain
