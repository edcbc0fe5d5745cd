// Logging settings and the request line: MDC_LOG_LEVEL / --log-level and
// MDC_ACCESS_LOG / --access-log in the configuration (a bad value refuses to
// start, naming the setting), the level filter and the access-log switch,
// and the keys of the per-request line CallRunner writes (shared with the
// gateway), its request_id taken from x-request-id or made up.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/log.h"
#include "service/calls/call_runner.h"
#include "service/config/config.h"
#include "tests/support/config_from.h"
#include "tests/support/service_stack.h"

namespace mdc::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::StatusOr<Config> Load(std::map<std::string, std::string> vars,
                            std::vector<std::string> args = {}) {
  return ConfigFrom(std::move(vars), args);
}

TEST(LogConfig, DefaultsToInfoWithTheAccessLogOn) {
  auto config = Load({});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->log_level, log::Level::kInfo);
  EXPECT_TRUE(config->access_log);
}

TEST(LogConfig, ReadsEveryLevel) {
  for (const auto& [text, level] :
       std::map<std::string, log::Level>{{"debug", log::Level::kDebug},
                                         {"info", log::Level::kInfo},
                                         {"warn", log::Level::kWarn},
                                         {"error", log::Level::kError}}) {
    auto config = Load({{"MDC_LOG_LEVEL", text}});
    ASSERT_TRUE(config.ok()) << text << ": " << config.status();
    EXPECT_EQ(config->log_level, level) << text;
    EXPECT_EQ(log::LevelName(level), text);
  }
}

TEST(LogConfig, FlagsWinOverTheEnvironment) {
  auto config = Load({{"MDC_LOG_LEVEL", "error"}, {"MDC_ACCESS_LOG", "on"}},
                     {"--log-level=debug", "--access-log", "off"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->log_level, log::Level::kDebug);
  EXPECT_FALSE(config->access_log);
}

TEST(LogConfig, ReadsTheAccessLogSwitch) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {"on", true},   {"true", true},   {"1", true},  {"yes", true},
      {"off", false}, {"false", false}, {"0", false}, {"no", false}};
  for (const auto& [text, on] : cases) {
    auto config = Load({{"MDC_ACCESS_LOG", text}});
    ASSERT_TRUE(config.ok()) << text << ": " << config.status();
    EXPECT_EQ(config->access_log, on) << text;
  }
}

// As the gateway reads the same variables: any case, spaces ignored, and
// empty is the default.
TEST(LogConfig, ReadsLikeTheGateway) {
  auto upper = Load({{"MDC_LOG_LEVEL", " WARN "}, {"MDC_ACCESS_LOG", "Off"}});
  ASSERT_TRUE(upper.ok()) << upper.status();
  EXPECT_EQ(upper->log_level, log::Level::kWarn);
  EXPECT_FALSE(upper->access_log);
  auto empty = Load({{"MDC_LOG_LEVEL", ""}, {"MDC_ACCESS_LOG", ""}});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->log_level, log::Level::kInfo);
  EXPECT_TRUE(empty->access_log);
}

TEST(LogConfig, RefusesBadValuesNamingTheSetting) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"MDC_LOG_LEVEL", "verbose"},
      {"MDC_LOG_LEVEL", "warning"},
      {"MDC_LOG_LEVEL", "0"},
      {"MDC_ACCESS_LOG", "maybe"}};
  for (const auto& [name, value] : cases) {
    auto config = Load({{name, value}});
    ASSERT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument)
        << name << "=" << value;
    EXPECT_THAT(config.status().message(), HasSubstr(name));
  }
  for (const std::string flag :
       {"--log-level=trace", "--access-log=sometimes"}) {
    auto config = Load({}, {flag});
    ASSERT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument)
        << flag;
    EXPECT_THAT(config.status().message(),
                HasSubstr(flag.substr(0, flag.find('='))));
  }
}

TEST(LogConfig, UsageNamesTheSettings) {
  EXPECT_THAT(ConfigUsage(), HasSubstr("MDC_LOG_LEVEL"));
  EXPECT_THAT(ConfigUsage(), HasSubstr("MDC_ACCESS_LOG"));
  EXPECT_THAT(ConfigUsage(), HasSubstr("--version"));
}

// Restores the process-wide log settings a test changes.
class LogSettings {
 public:
  LogSettings()
      : level_(log::CurrentLevel()), access_log_(log::AccessLogEnabled()) {}
  ~LogSettings() {
    log::SetLevel(level_);
    log::SetAccessLog(access_log_);
  }

 private:
  log::Level level_;
  bool access_log_;
};

// The lines of `captured` that contain `text`.
std::vector<std::string> LinesWith(const std::string& captured,
                                   absl::string_view text) {
  std::vector<std::string> lines;
  for (absl::string_view line : absl::StrSplit(captured, '\n')) {
    if (absl::StrContains(line, text)) lines.emplace_back(line);
  }
  return lines;
}

TEST(Log, LinesStartWithTheSharedKeys) {
  LogSettings restore;
  log::SetLevel(log::Level::kDebug);
  ::testing::internal::CaptureStderr();
  log::Debug("log test line", {{"k", "v"}});
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(out, ::testing::MatchesRegex(
                       R"(\{"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z",)"
                       R"("level":"debug","msg":"log test line","k":"v"\}
)"));
}

TEST(Log, TheTimeIsUtcToTheMillisecondAndWithinTheLine) {
  LogSettings restore;
  log::SetLevel(log::Level::kInfo);
  const absl::Time before = absl::Now();
  ::testing::internal::CaptureStderr();
  log::Info("log test time");
  const std::string out = ::testing::internal::GetCapturedStderr();
  const absl::Time after = absl::Now();
  ASSERT_THAT(out, ::testing::MatchesRegex(
                       R"(\{"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:)"
                       R"([0-9]{2}:[0-9]{2}\.[0-9]{3}Z",.*
)"));
  absl::Time logged;
  std::string error;
  ASSERT_TRUE(absl::ParseTime("%Y-%m-%dT%H:%M:%E3SZ", out.substr(9, 24),
                              absl::UTCTimeZone(), &logged, &error))
      << error;
  EXPECT_GE(logged, absl::FromUnixMillis(absl::ToUnixMillis(before)));
  EXPECT_LE(logged, after);
}

// The thread's cached second: times within it, then in the next second,
// minute, day and year, and back, each as absl::FormatTime writes it.
// (Chosen times, so the test does not wait for the clock's next second.)
TEST(Log, TheCachedSecondFollowsTheTime) {
  const absl::Time start = absl::FromCivil(
      absl::CivilSecond(2026, 12, 31, 23, 59, 58), absl::UTCTimeZone());
  for (const absl::Duration at :
       {absl::ZeroDuration(), absl::Milliseconds(7), absl::Milliseconds(999),
        absl::Milliseconds(1000), absl::Milliseconds(1001),
        absl::Milliseconds(2345), absl::Hours(24) + absl::Milliseconds(5),
        absl::Milliseconds(3)}) {
    const absl::Time t = start + at;
    std::string out = "x";
    log::AppendTime(out, t);
    EXPECT_EQ(out, "x" + absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", t,
                                          absl::UTCTimeZone()))
        << "at start + " << at;
  }
}

TEST(Log, EscapesWhatJsonMustAndKeepsTheRest) {
  std::string out;
  log::AppendJsonString(
      "plain \"quoted\" back\\slash\nnew\tt\rr\x01\x1f"
      "\x7f caf\xc3\xa9",
      out);
  EXPECT_EQ(out, R"("plain \"quoted\" back\\slash\nnew\tt\rr\u0001\u001f)"
                 "\x7f caf\xc3\xa9\"");
  out.clear();
  log::AppendJsonString("", out);
  EXPECT_EQ(out, R"("")");
  out.clear();
  log::AppendJsonString("\"", out);
  EXPECT_EQ(out, R"("\"")");
}

TEST(Log, DropsLinesBelowTheLevel) {
  LogSettings restore;
  log::SetLevel(log::Level::kWarn);
  ::testing::internal::CaptureStderr();
  log::Debug("log test debug");
  log::Info("log test info");
  log::Warning("log test warn");
  log::Error("log test error");
  const std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(out, Not(HasSubstr("log test debug")));
  EXPECT_THAT(out, Not(HasSubstr("log test info")));
  EXPECT_THAT(out, HasSubstr(R"("level":"warn","msg":"log test warn")"));
  EXPECT_THAT(out, HasSubstr(R"("level":"error","msg":"log test error")"));
}

TEST(RequestId, KeepsAValidIdAndMakesOneOtherwise) {
  EXPECT_EQ(RequestIdOf("abc-123_XYZ.~"), "abc-123_XYZ.~");
  EXPECT_EQ(RequestIdOf(std::string(128, 'a')), std::string(128, 'a'));
  for (const std::string bad :
       {std::string(), std::string(129, 'a'), std::string("has space"),
        std::string("tab\there"), std::string("caf\xc3\xa9")}) {
    const std::string made = RequestIdOf(bad);
    EXPECT_THAT(made, ::testing::MatchesRegex("[0-9a-f]{32}")) << bad;
  }
  EXPECT_NE(RequestIdOf(""), RequestIdOf(""));
}

class AccessLogTest : public ServiceTest {
 protected:
  // Calls DeveloperService.GetList for `token` (none: anonymous) with
  // `request_id` as x-request-id (none when empty) and returns its code and
  // what the process wrote on stderr meanwhile.
  static grpc::StatusCode GetList(const std::string& token,
                                  const std::string& request_id,
                                  std::string* captured) {
    v1::GetListRequest request;
    request.set_type("TOP_GAINERS");
    request.set_datetime("2001-01-02T10:00:00");
    grpc::ClientContext context;
    context.set_deadline(absl::ToChronoTime(absl::Now() + kCallDeadline));
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    if (!request_id.empty()) context.AddMetadata("x-request-id", request_id);
    v1::Shortlist response;
    ::testing::internal::CaptureStderr();
    const grpc::Status status =
        stack().developer().GetList(&context, request, &response);
    *captured = ::testing::internal::GetCapturedStderr();
    return status.error_code();
  }
};

TEST_F(AccessLogTest, OnWritesOneLineWithTheSharedKeys) {
  LogSettings restore;
  log::SetAccessLog(true);
  std::string out;
  EXPECT_EQ(GetList("", "gw-req-0001", &out),
            grpc::StatusCode::UNAUTHENTICATED);
  const auto lines = LinesWith(out, R"("request_id":"gw-req-0001")");
  ASSERT_EQ(lines.size(), 1u) << out;
  for (const char* key : {R"("time":")", R"("level":"info")",
                          R"("msg":"request")", R"("method":"GetList")",
                          R"("code":"UNAUTHENTICATED")", R"("latency_ms":)",
                          R"("developer":0)", R"("run_id":)", R"("client":)"}) {
    EXPECT_THAT(lines[0], HasSubstr(key));
  }
}

TEST_F(AccessLogTest, MakesARequestIdWhenNoneOrABadOneIsSent) {
  LogSettings restore;
  log::SetAccessLog(true);
  for (const std::string sent : {"", "bad id with spaces"}) {
    std::string out;
    GetList("", sent, &out);
    const auto lines = LinesWith(out, R"("msg":"request")");
    ASSERT_EQ(lines.size(), 1u) << out;
    EXPECT_THAT(lines[0],
                ::testing::ContainsRegex(R"("request_id":"[0-9a-f]{32}")"));
  }
}

TEST_F(AccessLogTest, OffDropsTheRequestLine) {
  LogSettings restore;
  log::SetAccessLog(false);
  std::string out;
  EXPECT_EQ(GetList("", "gw-req-0002", &out),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(out, Not(HasSubstr(R"("msg":"request")")));
  EXPECT_EQ(GetList(stack().NewDeveloper(), "gw-req-0003", &out),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(out, Not(HasSubstr(R"("msg":"request")")));
}

// Runs last in the suite: it breaks the suite's database.
TEST_F(AccessLogTest, ZZOffStillLogsServerFailuresAsErrors) {
  LogSettings restore;
  log::SetAccessLog(false);
  const std::string token = stack().NewDeveloper();
  db().Query("ALTER TABLE shortlist_snapshots RENAME TO broken_shortlists");
  std::string out;
  const grpc::StatusCode code = GetList(token, "gw-req-0004", &out);
  db().Query("ALTER TABLE broken_shortlists RENAME TO shortlist_snapshots");
  ASSERT_EQ(code, grpc::StatusCode::INTERNAL) << out;
  const auto lines = LinesWith(out, R"("request_id":"gw-req-0004")");
  ASSERT_EQ(lines.size(), 1u) << out;
  EXPECT_THAT(lines[0], HasSubstr(R"("level":"error","msg":"request")"));
  EXPECT_THAT(lines[0], HasSubstr(R"("code":"INTERNAL")"));
}

}  // namespace
}  // namespace mdc::testing
