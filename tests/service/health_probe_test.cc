// `mdc-server health`, the containers' health check: SERVING from a running
// server (plaintext and TLS) is exit 0; a port nobody listens on is exit 1
// with the reason; a wildcard listen address is probed on loopback.
#include "service/health_probe/health_probe.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "service/config/config.h"
#include "service/lifecycle/server.h"
#include "tests/support/test_certificate.h"
#include "tests/support/test_database.h"

namespace mdc {
namespace {

// What a FILE* received, for checking the probe's messages.
class Captured {
 public:
  Captured() : file_(std::tmpfile()) {}
  ~Captured() { std::fclose(file_); }
  FILE* file() { return file_; }
  std::string Text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string text;
    char buffer[512];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0) {
      text.append(buffer, n);
    }
    return text;
  }

 private:
  FILE* file_;
};

class HealthProbe : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { db_ = new testing::TestDatabase(); }
  static void TearDownTestSuite() { delete db_; }
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Starts mdc-server on 127.0.0.1, over TLS when `tls`.
  void Start(bool tls) {
    Config config;
    config.grpc_addr = "127.0.0.1:0";
    config.database_url = db_->url();
    config.db_pool_size = 2;
    config.max_threads = 8;
    config.drain_seconds = 0;
    if (tls) {
      dir_ = std::filesystem::temp_directory_path() /
             absl::StrCat("mdc-health-probe-", ::getpid());
      std::filesystem::create_directories(dir_);
      const testing::KeyPair pair = testing::MakeKeyPair();
      config.grpc_tls_cert = (dir_ / "cert.pem").string();
      config.grpc_tls_key = (dir_ / "key.pem").string();
      std::ofstream(config.grpc_tls_cert) << pair.cert_pem;
      std::ofstream(config.grpc_tls_key) << pair.key_pem;
    }
    auto started = Server::Start(config);
    ASSERT_TRUE(started.ok()) << started.status();
    server_ = *std::move(started);
  }

  std::string Addr() const {
    return absl::StrCat("127.0.0.1:", server_->port());
  }

  static testing::TestDatabase* db_;
  std::unique_ptr<Server> server_;
  std::filesystem::path dir_;
};

testing::TestDatabase* HealthProbe::db_ = nullptr;

TEST_F(HealthProbe, ServingServerIsExitZero) {
  Start(/*tls=*/false);
  Captured err;
  EXPECT_EQ(ProbeHealth(Addr(), false, absl::Seconds(3), err.file()), 0)
      << err.Text();
  EXPECT_EQ(err.Text(), "");
}

TEST_F(HealthProbe, ServingTlsServerIsExitZero) {
  Start(/*tls=*/true);
  Captured err;
  EXPECT_EQ(ProbeHealth(Addr(), true, absl::Seconds(3), err.file()), 0)
      << err.Text();
  // Plaintext to a TLS listener gets no answer.
  Captured plain;
  EXPECT_EQ(ProbeHealth(Addr(), false, absl::Seconds(1), plain.file()), 1);
}

TEST_F(HealthProbe, NothingListeningIsExitOneWithTheReason) {
  Start(/*tls=*/false);
  const std::string addr = Addr();
  server_->Shutdown();
  server_.reset();
  Captured err;
  EXPECT_EQ(ProbeHealth(addr, false, absl::Seconds(1), err.file()), 1);
  EXPECT_NE(err.Text().find(addr), std::string::npos) << err.Text();
}

TEST_F(HealthProbe, CommandReadsTheListenAddress) {
  Start(/*tls=*/false);
  const std::string wildcard = absl::StrCat("0.0.0.0:", server_->port());
  const std::map<std::string, std::string> env = {{"MDC_GRPC_ADDR", wildcard}};
  auto getenv = [&env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  Captured err;
  EXPECT_EQ(RunHealthCommand({"health"}, getenv, err.file()), 0) << err.Text();
  EXPECT_EQ(RunHealthCommand(
                {"health", "--grpc-addr", wildcard},
                [](const char*) { return nullptr; }, err.file()),
            0)
      << err.Text();
  Captured bad;
  EXPECT_EQ(RunHealthCommand({"health", "--bogus"}, getenv, bad.file()), 2);
  EXPECT_NE(bad.Text().find("--bogus"), std::string::npos) << bad.Text();
}

TEST(HealthProbeAddress, WildcardHostsBecomeLoopback) {
  EXPECT_EQ(ProbeAddress("0.0.0.0:50051"), "127.0.0.1:50051");
  EXPECT_EQ(ProbeAddress(":50051"), "127.0.0.1:50051");
  EXPECT_EQ(ProbeAddress("[::]:50051"), "[::1]:50051");
  EXPECT_EQ(ProbeAddress("10.1.2.3:7000"), "10.1.2.3:7000");
  EXPECT_EQ(ProbeAddress("server:50051"), "server:50051");
}

}  // namespace
}  // namespace mdc
