// TLS of the gRPC listener: the MDC_GRPC_TLS_CERT / MDC_GRPC_TLS_KEY
// settings and the checks GrpcServerCredentials makes of their files at
// start-up. The handshake itself is tested end to end (tests/e2e/tls_test.go).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "service/lifecycle/tls_credentials.h"
#include "tests/support/config_from.h"
#include "tests/support/test_certificate.h"

namespace mdc {
namespace {

using testing::KeyPair;
using testing::MakeKeyPair;

class GrpcTls : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("mdc-grpc-tls-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(GrpcTls, NeitherFileIsPlaintext) {
  auto credentials = GrpcServerCredentials("", "");
  ASSERT_TRUE(credentials.ok()) << credentials.status();
  EXPECT_NE(*credentials, nullptr);
}

TEST_F(GrpcTls, AMatchingPairIsTls) {
  const KeyPair pair = MakeKeyPair();
  auto credentials = GrpcServerCredentials(Write("c.pem", pair.cert_pem),
                                           Write("k.pem", pair.key_pem));
  ASSERT_TRUE(credentials.ok()) << credentials.status();
  EXPECT_NE(*credentials, nullptr);
}

TEST_F(GrpcTls, BadFilesNameTheSetting) {
  const KeyPair pair = MakeKeyPair();
  const KeyPair other = MakeKeyPair();
  const std::string cert = Write("c.pem", pair.cert_pem);
  const std::string key = Write("k.pem", pair.key_pem);
  const std::string garbage = Write("g.pem", "not PEM\n");
  const struct {
    std::string cert, key, says;
  } cases[] = {
      {(dir_ / "none.pem").string(), key, "MDC_GRPC_TLS_CERT: cannot read"},
      {cert, (dir_ / "none.pem").string(), "MDC_GRPC_TLS_KEY: cannot read"},
      {garbage, key, "MDC_GRPC_TLS_CERT: " + garbage + " holds no PEM"},
      {cert, garbage, "MDC_GRPC_TLS_KEY: " + garbage + " holds no PEM"},
      {cert, Write("other.pem", other.key_pem), "does not belong"},
      {cert, "", "MDC_GRPC_TLS_KEY go together"},
  };
  for (const auto& c : cases) {
    auto credentials = GrpcServerCredentials(c.cert, c.key);
    ASSERT_FALSE(credentials.ok()) << c.says;
    EXPECT_EQ(credentials.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(credentials.status().message().find(c.says), std::string::npos)
        << credentials.status();
  }
}

TEST(GrpcTlsConfig, ReadsBothSettings) {
  auto config = testing::ConfigFrom(
      {{"MDC_GRPC_TLS_CERT", "/etc/mdc/c.pem"}, {"MDC_GRPC_TLS_KEY", "/k"}});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->grpc_tls_cert, "/etc/mdc/c.pem");
  EXPECT_EQ(config->grpc_tls_key, "/k");
  auto flags =
      testing::ConfigFrom({}, {"--grpc-tls-cert=/a", "--grpc-tls-key", "/b"});
  ASSERT_TRUE(flags.ok()) << flags.status();
  EXPECT_EQ(flags->grpc_tls_cert, "/a");
  EXPECT_EQ(flags->grpc_tls_key, "/b");
  auto none = testing::ConfigFrom({});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->grpc_tls_cert, "");
}

TEST(GrpcTlsConfig, OneWithoutTheOtherIsRefused) {
  auto cert_only = testing::ConfigFrom({{"MDC_GRPC_TLS_CERT", "/c.pem"}});
  ASSERT_FALSE(cert_only.ok());
  EXPECT_NE(cert_only.status().message().find(
                "MDC_GRPC_TLS_CERT is set but MDC_GRPC_TLS_KEY is not"),
            std::string::npos)
      << cert_only.status();
  auto key_only = testing::ConfigFrom({}, {"--grpc-tls-key=/k.pem"});
  ASSERT_FALSE(key_only.ok());
  EXPECT_NE(key_only.status().message().find(
                "MDC_GRPC_TLS_KEY is set but MDC_GRPC_TLS_CERT is not"),
            std::string::npos)
      << key_only.status();
}

}  // namespace
}  // namespace mdc
