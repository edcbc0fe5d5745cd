// BrokerTokens against a real PostgreSQL and a fake token endpoint: the
// token is stored sealed with MDC_SECRET_KEY (never in clear), a token
// sealed under another key is replaced, and without a key nothing is stored
// and every call fetches anew.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "domain/secret_box.h"
#include "service/broker/broker_tokens.h"
#include "service/broker/db_broker_credentials.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

// Answers broker-token-<n> to the n-th call.
class CountingHttp final : public HttpClient {
 public:
  absl::StatusOr<HttpResponse> PostJson(absl::string_view, absl::string_view,
                                        absl::Duration) override {
    ++calls;
    return HttpResponse{200, absl::StrCat(R"({"access_token": "broker-token-)",
                                          calls, R"("})")};
  }
  int calls = 0;
};

class BrokerTokensSealedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<testing::TestDatabase>();
    repos_ = std::make_unique<storage::Repositories>(db_->pool());
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::Repositories> repos_;
  EnvBrokerCredentials env_{"key-1", "secret-1"};
  CountingHttp http_;
  const absl::Time now_ = absl::Now();
};

TEST_F(BrokerTokensSealedTest, StoredTokenIsSealedAndReadBack) {
  DbBrokerCredentials credentials(
      repos_->broker_credentials,
      *domain::SecretBox::FromKeyText(std::string(64, 'a')), &env_);
  BrokerTokens tokens(repos_->broker_tokens, credentials, http_,
                      "http://broker.invalid/token", absl::Seconds(1));
  auto first = tokens.Current(now_);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->access_token, "broker-token-1");
  auto again = tokens.Current(now_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->access_token, "broker-token-1");
  EXPECT_EQ(http_.calls, 1);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM broker_tokens WHERE position("
                       "'broker-token'::bytea IN access_token_sealed) = 0"),
            "1");

  // Another key cannot open it: fetched again and replaced.
  DbBrokerCredentials other_key(
      repos_->broker_credentials,
      *domain::SecretBox::FromKeyText(std::string(64, 'b')), &env_);
  BrokerTokens other(repos_->broker_tokens, other_key, http_,
                     "http://broker.invalid/token", absl::Seconds(1));
  auto replaced = other.Current(now_);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_EQ(replaced->access_token, "broker-token-2");
  auto reread = other.Current(now_);
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_EQ(reread->access_token, "broker-token-2");
  EXPECT_EQ(http_.calls, 2);
}

TEST_F(BrokerTokensSealedTest, WithoutAKeyNothingIsStored) {
  DbBrokerCredentials credentials(repos_->broker_credentials, std::nullopt,
                                  &env_);
  BrokerTokens tokens(repos_->broker_tokens, credentials, http_,
                      "http://broker.invalid/token", absl::Seconds(1));
  for (int i = 1; i <= 2; ++i) {
    auto token = tokens.Current(now_);
    ASSERT_TRUE(token.ok()) << token.status();
    EXPECT_EQ(token->access_token, absl::StrCat("broker-token-", i));
    EXPECT_GT(token->expires_at, now_);
  }
  EXPECT_EQ(http_.calls, 2);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM broker_tokens"), "0");
}

}  // namespace
}  // namespace mdc
