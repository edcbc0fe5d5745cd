// DbBrokerCredentials against a real PostgreSQL: credentials an admin
// stored are sealed at rest, read back with the same key, win over the
// environment's, and are refused (with the reason) without the key.
#include "service/broker/db_broker_credentials.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "domain/secret_box.h"
#include "storage/repositories.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

class DbBrokerCredentialsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = std::make_unique<testing::TestDatabase>();
    repos_ = std::make_unique<storage::Repositories>(db_->pool());
  }

  std::string Count(const std::string& table,
                    const std::string& where = "true") {
    return db_->Query("SELECT count(*) FROM " + table + " WHERE " + where);
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<storage::Repositories> repos_;
};

TEST_F(DbBrokerCredentialsTest, BrokerCredentialsAreStoredSealedAndReadBack) {
  auto box = *domain::SecretBox::FromKeyText(std::string(64, 'a'));
  EnvBrokerCredentials env("env-key", "env-secret");
  DbBrokerCredentials source(repos_->broker_credentials, box, &env);
  // Nothing stored: the environment's apply.
  EXPECT_EQ((*source.Get())->api_key, "env-key");
  EXPECT_FALSE(repos_->broker_credentials.Get()->has_value());

  auto at = repos_->broker_credentials.Put(
      box.Seal("db-key", kBrokerApiKeyContext),
      box.Seal("db-secret", kBrokerApiSecretContext));
  ASSERT_TRUE(at.ok()) << at.status();
  auto stored = repos_->broker_credentials.Get();
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->updated_at, *at);
  auto read = source.Get();
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ((*read)->api_key, "db-key");
  EXPECT_EQ((*read)->api_secret, "db-secret");
  EXPECT_EQ(Count("broker_credentials",
                  "position('db-secret'::bytea in api_secret_sealed) > 0 OR "
                  "position('db-key'::bytea in api_key_sealed) > 0"),
            "0");

  ASSERT_TRUE(repos_->broker_credentials
                  .Put(box.Seal("k2", kBrokerApiKeyContext),
                       box.Seal("s2", kBrokerApiSecretContext))
                  .ok());
  EXPECT_EQ(Count("broker_credentials"), "1");
  EXPECT_EQ((*source.Get())->api_key, "k2");

  // Another key, or none, cannot read them and says why.
  DbBrokerCredentials other(
      repos_->broker_credentials,
      *domain::SecretBox::FromKeyText(std::string(64, 'b')), nullptr);
  EXPECT_EQ(other.Get().status().code(), absl::StatusCode::kFailedPrecondition);
  DbBrokerCredentials keyless(repos_->broker_credentials, std::nullopt, &env);
  EXPECT_EQ(keyless.Get().status().code(),
            absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace mdc
