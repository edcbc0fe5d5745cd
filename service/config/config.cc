#include "service/config/config.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "domain/compaction.h"
#include "domain/ip_network.h"
#include "domain/secret_box.h"
#include "domain/sign_in.h"
#include "service/config/flags.h"

namespace mdc {
namespace {

struct Option {
  const char* flag;
  const char* env;
  const char* help;
  std::function<bool(Config&, const std::string&)> set;
  // A secret's value is never repeated in error messages.
  bool secret = false;
};

bool SetInt(int* field, const std::string& value, int min, int max) {
  int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < min || parsed > max) {
    return false;
  }
  *field = parsed;
  return true;
}

// Calls a second for a rate limit: a decimal number from 0 (no limit) to a
// million.
bool SetRate(double* field, const std::string& value) {
  double parsed = 0;
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(value), &parsed) ||
      !(parsed >= 0 && parsed <= 1e6)) {  // also refuses NaN
    return false;
  }
  *field = parsed;
  return true;
}

// A duration as the gateway writes its own ("25s", "500ms", "1m"): zero
// (off), or from `min` to `max`.
bool SetOptionalDuration(absl::Duration* field, const std::string& value,
                         absl::Duration min, absl::Duration max) {
  absl::Duration parsed;
  if (!absl::ParseDuration(absl::StripAsciiWhitespace(value), &parsed)) {
    return false;
  }
  if (parsed != absl::ZeroDuration() && (parsed < min || parsed > max)) {
    return false;
  }
  *field = parsed;
  return true;
}

// The replica's lag bound: from 1 s (the lag is measured twice a second)
// to 1 h.
bool SetMaxLag(absl::Duration* field, const std::string& value) {
  absl::Duration parsed;
  if (!absl::ParseDuration(absl::StripAsciiWhitespace(value), &parsed) ||
      parsed < absl::Seconds(1) || parsed > absl::Hours(1)) {
    return false;
  }
  *field = parsed;
  return true;
}

// An on/off switch, read as the gateway reads its own (any case).
bool SetSwitch(bool* field, const std::string& text) {
  const std::string value =
      absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (value == "on" || value == "true" || value == "1" || value == "yes") {
    *field = true;
  } else if (value == "off" || value == "false" || value == "0" ||
             value == "no") {
    *field = false;
  } else {
    return false;
  }
  return true;
}

const std::vector<Option>& Options() {
  static const auto* options = new std::vector<Option>{
      {"grpc-addr", "MDC_GRPC_ADDR", "host:port the gRPC server listens on",
       [](Config& c, const std::string& v) {
         c.grpc_addr = v;
         return !v.empty();
       }},
      {"database-url", "DATABASE_URL", "libpq URL of the PostgreSQL database",
       [](Config& c, const std::string& v) {
         c.database_url = v;
         return true;
       }},
      {"database-read-url", "DATABASE_READ_URL",
       "libpq URL of a streaming standby of the database, for reads that "
       "may lag (docs/architecture.md); empty: every read on DATABASE_URL",
       [](Config& c, const std::string& v) {
         c.database_read_url = v;
         return true;
       }},
      {"replica-max-lag", "MDC_REPLICA_MAX_LAG",
       "the most a read from DATABASE_READ_URL may lag behind the primary, "
       "e.g. 5s (default); 1s-1h; a standby further behind is not read",
       [](Config& c, const std::string& v) {
         return SetMaxLag(&c.replica_max_lag, v);
       }},
      {"admin-token", "MDC_ADMIN_TOKEN",
       "token of the bootstrap admin 'admin' (created or updated at start)",
       [](Config& c, const std::string& v) {
         c.admin_token = v;
         return true;
       },
       /*secret=*/true},
      {"secret-key", "MDC_SECRET_KEY",
       "key sealing broker credentials at rest: 32 random bytes as 64 hex "
       "characters (openssl rand -hex 32) or base64; empty: broker "
       "credentials cannot be stored",
       [](Config& c, const std::string& v) {
         c.secret_key = v;
         return v.empty() || domain::SecretBox::FromKeyText(v).ok();
       },
       /*secret=*/true},
      {"db-pool-size", "MDC_DB_POOL_SIZE", "database connections (1-256)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.db_pool_size, v, 1, 256);
       }},
      {"max-threads", "MDC_MAX_THREADS", "gRPC handler threads (2-1024)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.max_threads, v, 2, 1024);
       }},
      {"metrics-addr", "MDC_METRICS_ADDR",
       "host:port for Prometheus /metrics; empty disables",
       [](Config& c, const std::string& v) {
         c.metrics_addr = v;
         return true;
       }},
      {"grpc-tls-cert", "MDC_GRPC_TLS_CERT",
       "PEM certificate (chain) of the gRPC listener; with --grpc-tls-key "
       "the server speaks gRPC over TLS only",
       [](Config& c, const std::string& v) {
         c.grpc_tls_cert = v;
         return true;
       }},
      {"grpc-tls-key", "MDC_GRPC_TLS_KEY", "PEM private key of --grpc-tls-cert",
       [](Config& c, const std::string& v) {
         c.grpc_tls_key = v;
         return true;
       }},
      {"max-connection-age", "MDC_MAX_CONNECTION_AGE",
       "a client connection is asked to reconnect once this old, e.g. 5m, so "
       "clients that find servers through DNS (the gateway) reach new ones; "
       "calls in flight finish; 0 (default): never; 0 or 1s-24h",
       [](Config& c, const std::string& v) {
         return SetOptionalDuration(&c.max_connection_age, v, absl::Seconds(1),
                                    absl::Hours(24));
       }},
      {"db-wait-seconds", "MDC_DB_WAIT_SECONDS",
       "how long start-up waits for the database (0-3600)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.db_wait_seconds, v, 0, 3600);
       }},
      {"drain-seconds", "MDC_DRAIN_SECONDS",
       "how long SIGTERM waits for calls in flight (0-600)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.drain_seconds, v, 0, 600);
       }},
      {"watch-heartbeat", "MDC_WATCH_HEARTBEAT",
       "seconds an idle watch waits before it sends a message without "
       "events, so clients can tell a live connection from a dead one "
       "(1-300)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.watch_heartbeat_seconds, v, 1, 300);
       }},
      {"max-exports-per-developer", "MDC_MAX_EXPORTS_PER_DEVELOPER",
       "exports one developer may have open on this server at once; more "
       "are 429 (0-1000; 0: no cap)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.stream_limits.exports, v, 0, 1000);
       }},
      {"max-replays-per-developer", "MDC_MAX_REPLAYS_PER_DEVELOPER",
       "day replays one developer may have open on this server at once; "
       "more are 429 (0-1000; 0: no cap)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.stream_limits.replays, v, 0, 1000);
       }},
      {"max-watches-per-developer", "MDC_MAX_WATCHES_PER_DEVELOPER",
       "watches one developer may have open on this server at once; more "
       "are 429 (0-10000; 0: no cap)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.stream_limits.watches, v, 0, 10000);
       }},
      {"broker-token-url", "MDC_BROKER_TOKEN_URL",
       "http(s) URL of the broker's token endpoint; empty: no broker",
       [](Config& c, const std::string& v) {
         c.broker_token_url = v;
         return v.empty() || absl::StartsWith(v, "http://") ||
                absl::StartsWith(v, "https://");
       }},
      {"broker-api-key", "MDC_BROKER_API_KEY",
       "broker API key sent to the token endpoint",
       [](Config& c, const std::string& v) {
         c.broker_api_key = v;
         return true;
       }},
      {"broker-api-secret", "MDC_BROKER_API_SECRET",
       "broker API secret sent to the token endpoint",
       [](Config& c, const std::string& v) {
         c.broker_api_secret = v;
         return true;
       }},
      {"broker-timeout-seconds", "MDC_BROKER_TIMEOUT_SECONDS",
       "how long a call to the token endpoint may take (1-120)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.broker_timeout_seconds, v, 1, 120);
       }},
      {"log-level", "MDC_LOG_LEVEL",
       "lowest level logged: debug, info (default), warn or error",
       [](Config& c, const std::string& v) {
         // Empty: the default, as for the gateway.
         if (absl::StripAsciiWhitespace(v).empty()) {
           c.log_level = log::Level::kInfo;
           return true;
         }
         return log::ParseLevel(v, &c.log_level);
       }},
      {"access-log", "MDC_ACCESS_LOG",
       "one info line per request: on (default) or off; failed calls are "
       "logged either way",
       [](Config& c, const std::string& v) {
         if (absl::StripAsciiWhitespace(v).empty()) {
           c.access_log = true;
           return true;
         }
         return SetSwitch(&c.access_log, v);
       }},
      {"trusted-proxies", "MDC_TRUSTED_PROXIES",
       "comma-separated IP addresses or networks (10.244.0.0/16) whose "
       "x-forwarded-for is believed; empty: none; default 127.0.0.1,::1 (the "
       "local gateway) when --grpc-addr is a loopback address, else none",
       [](Config& c, const std::string& v) {
         std::vector<std::string> proxies;
         for (absl::string_view part : absl::StrSplit(v, ',')) {
           part = absl::StripAsciiWhitespace(part);
           if (part.empty()) continue;
           auto network = domain::IpNetwork::Parse(part);
           if (!network.has_value()) return false;
           proxies.push_back(network->ToString());
         }
         c.trusted_proxies = std::move(proxies);
         c.trusted_proxies_set = true;
         return true;
       }},
      {"rate-limit-reads", "MDC_RATE_LIMIT_READS",
       "reads a second one developer may make (0-1000000, decimals allowed); "
       "0: no limit (default)",
       [](Config& c, const std::string& v) {
         return SetRate(&c.rate_limit_reads, v);
       }},
      {"rate-limit-reads-burst", "MDC_RATE_LIMIT_READS_BURST",
       "reads one developer may make at once (0-1000000); 0: one second's "
       "worth (default)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.rate_limit_reads_burst, v, 0, 1000000);
       }},
      {"rate-limit-writes", "MDC_RATE_LIMIT_WRITES",
       "writes a second one developer may make (0-1000000, decimals "
       "allowed); 0: no limit (default)",
       [](Config& c, const std::string& v) {
         return SetRate(&c.rate_limit_writes, v);
       }},
      {"rate-limit-writes-burst", "MDC_RATE_LIMIT_WRITES_BURST",
       "writes one developer may make at once (0-1000000); 0: one second's "
       "worth (default)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.rate_limit_writes_burst, v, 0, 1000000);
       }},
      {"heavy-reads", "MDC_HEAVY_READS",
       "heavy reads (cross-sections, candles of many symbols, coverage) "
       "the server runs at once; more wait their turn (0-1024); 0: no "
       "limit; default 2",
       [](Config& c, const std::string& v) {
         return SetInt(&c.heavy_reads, v, 0, 1024);
       }},
      {"heavy-reads-per-developer", "MDC_HEAVY_READS_PER_DEVELOPER",
       "heavy reads one developer may have running or waiting in the "
       "server; more are refused with 429 (0-1024); 0: no limit; default 2",
       [](Config& c, const std::string& v) {
         return SetInt(&c.heavy_reads_per_developer, v, 0, 1024);
       }},
      {"heavy-read-wait", "MDC_HEAVY_READ_WAIT",
       "longest a heavy read waits for its turn before it is refused with "
       "429, e.g. 10s (default); 0 (refuse at once) or 1ms-60s",
       [](Config& c, const std::string& v) {
         return SetOptionalDuration(&c.heavy_read_wait, v,
                                    absl::Milliseconds(1), absl::Seconds(60));
       }},
      {"statement-timeout", "MDC_STATEMENT_TIMEOUT",
       "longest a database statement may run, e.g. 25s (default) or 500ms; "
       "0 or 100ms-24h; keep it below the gateway's MDC_CALL_TIMEOUT",
       [](Config& c, const std::string& v) {
         return SetOptionalDuration(&c.statement_timeout, v,
                                    absl::Milliseconds(100), absl::Hours(24));
       }},
      {"retention-months", "MDC_RETENTION_MONTHS",
       "months of market history kept before the current month (0-1200); "
       "older monthly partitions are dropped hourly; 0: keep all (default)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.retention_months, v, 0, 1200);
       }},
      {"compact-after-days", "MDC_COMPACT_AFTER_DAYS",
       "compact the stock quotes of trading days at least this many days "
       "old into compressed batches, hourly (0-3660); 0: never (default)",
       [](Config& c, const std::string& v) {
         return SetInt(&c.compact_after_days, v, 0,
                       domain::kMaxCompactAfterDays);
       }},
  };
  return *options;
}

const Option* FindOption(absl::string_view flag) {
  for (const Option& option : Options()) {
    if (flag == option.flag) return &option;
  }
  return nullptr;
}

// How a bad value appears in an error: quoted, or for a secret only the rule.
std::string Shown(const Option& option, const std::string& value) {
  if (option.secret) return absl::StrCat("(value not shown) ", option.help);
  return absl::StrCat("\"", value, "\"");
}

}  // namespace

bool ListensOnLoopbackOnly(absl::string_view listen_addr) {
  absl::string_view host = listen_addr;
  if (absl::ConsumePrefix(&host, "[")) {
    host = host.substr(0, host.find(']'));
  } else if (const size_t colon = host.rfind(':');
             colon != absl::string_view::npos) {
    host = host.substr(0, colon);
  }
  if (host == "localhost") return true;
  const std::optional<std::string> ip = domain::CanonicalIp(host);
  return ip.has_value() && (*ip == "::1" || absl::StartsWith(*ip, "127."));
}

absl::StatusOr<Config> LoadConfig(
    const std::vector<std::string>& args,
    const std::function<const char*(const char*)>& getenv) {
  Config config;
  for (const Option& option : Options()) {
    const char* value = getenv(option.env);
    if (value != nullptr && !option.set(config, value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad value for ", option.env, ": ", Shown(option, value)));
    }
  }
  auto flags = ParseFlags(args);
  if (!flags.ok()) return flags.status();
  for (const Flag& flag : *flags) {
    const Option* option = FindOption(flag.name);
    if (option == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag --", flag.name));
    }
    if (!option->set(config, flag.value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad value for --", flag.name, ": ", Shown(*option, flag.value)));
    }
  }
  if (config.database_url.empty()) {
    return absl::InvalidArgumentError(
        "no database: set DATABASE_URL or --database-url");
  }
  if (!config.trusted_proxies_set && ListensOnLoopbackOnly(config.grpc_addr)) {
    config.trusted_proxies = {"127.0.0.1", "::1"};
  }
  // Half a TLS configuration is a mistake, never a request for plaintext.
  if (config.grpc_tls_cert.empty() != config.grpc_tls_key.empty()) {
    const bool cert = !config.grpc_tls_cert.empty();
    return absl::InvalidArgumentError(absl::StrCat(
        cert ? "MDC_GRPC_TLS_CERT" : "MDC_GRPC_TLS_KEY", " is set but ",
        cert ? "MDC_GRPC_TLS_KEY" : "MDC_GRPC_TLS_CERT",
        " is not: set both (gRPC over TLS), or neither"));
  }
  return config;
}

std::string ConfigUsage() {
  std::string usage =
      "usage: mdc-server [--flag=value ...]\n"
      "       mdc-server --version\n\nFlags (environment variable "
      "in brackets):\n";
  for (const Option& option : Options()) {
    absl::StrAppend(&usage, "  --", option.flag, " [", option.env, "]\n      ",
                    option.help, "\n");
  }
  return usage;
}

}  // namespace mdc
