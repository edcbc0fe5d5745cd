// Server configuration from command-line flags and MDC_* environment
// variables (a flag wins over the variable).
#ifndef MDC_SERVICE_CONFIG_CONFIG_H_
#define MDC_SERVICE_CONFIG_CONFIG_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "common/log.h"
#include "domain/stream_quota.h"

namespace mdc {

struct Config {
  std::string grpc_addr = "127.0.0.1:50051";  // --grpc-addr, MDC_GRPC_ADDR
  std::string database_url;                   // --database-url, DATABASE_URL
  // --database-read-url, DATABASE_READ_URL: libpq URL of a streaming
  // standby of DATABASE_URL's cluster ("" = none). Reads that may lag go
  // there (service/replica/read_routing.h), while it is within
  // replica_max_lag of the primary.
  std::string database_read_url;
  // --replica-max-lag, MDC_REPLICA_MAX_LAG: the most a read the standby
  // answers may lag behind the primary (1s-1h).
  absl::Duration replica_max_lag = absl::Seconds(5);
  std::string admin_token;  // --admin-token, MDC_ADMIN_TOKEN (bootstrap)
  // --secret-key, MDC_SECRET_KEY: seals broker credentials at rest; 32 bytes
  // as 64 hex characters or base64 (domain/secret_box.h). "" = none, and
  // PUT /v1/admin/broker is refused.
  std::string secret_key;
  int db_pool_size = 8;      // --db-pool-size, MDC_DB_POOL_SIZE
  int max_threads = 128;     // --max-threads, MDC_MAX_THREADS
  std::string metrics_addr;  // --metrics-addr, MDC_METRICS_ADDR ("" = off)
  // --grpc-tls-cert, MDC_GRPC_TLS_CERT and --grpc-tls-key, MDC_GRPC_TLS_KEY:
  // PEM files of the gRPC listener's certificate (chain) and key. Both set:
  // gRPC over TLS only (service/lifecycle/tls_credentials.h); neither:
  // plaintext. One without the other is refused.
  std::string grpc_tls_cert;
  std::string grpc_tls_key;
  // --max-connection-age, MDC_MAX_CONNECTION_AGE: a client connection is
  // asked to reconnect (HTTP/2 GOAWAY) once this old, so a client that finds
  // the servers through DNS (the gateway, a Kubernetes headless Service)
  // resolves again and reaches servers added since; calls in flight finish
  // on the old connection. Zero: never (default).
  absl::Duration max_connection_age = absl::ZeroDuration();
  int db_wait_seconds = 60;          // --db-wait-seconds, MDC_DB_WAIT_SECONDS
  int drain_seconds = 10;            // --drain-seconds, MDC_DRAIN_SECONDS
  int watch_heartbeat_seconds = 15;  // --watch-heartbeat, MDC_WATCH_HEARTBEAT
  // --max-exports-per-developer, MDC_MAX_EXPORTS_PER_DEVELOPER (and
  // replays, watches): the streams one developer may have open on this
  // server at once (domain/stream_quota.h); 0: no cap.
  domain::StreamLimits stream_limits;
  // The broker's token endpoint ("" = no broker) and credentials.
  std::string broker_token_url;   // --broker-token-url, MDC_BROKER_TOKEN_URL
  std::string broker_api_key;     // --broker-api-key, MDC_BROKER_API_KEY
  std::string broker_api_secret;  // --broker-api-secret, MDC_BROKER_API_SECRET
  int broker_timeout_seconds = 10;  // --broker-timeout-seconds,
                                    // MDC_BROKER_TIMEOUT_SECONDS
  // --log-level, MDC_LOG_LEVEL: debug, info, warn or error; lines below it
  // are dropped.
  log::Level log_level = log::Level::kInfo;
  // --access-log, MDC_ACCESS_LOG: on/off (also true/false, 1/0); off drops
  // the per-request info line, never an error line.
  bool access_log = true;
  // --trusted-proxies, MDC_TRUSTED_PROXIES: comma-separated IP addresses of
  // the proxies (the gateway) whose x-forwarded-for names the client; a call
  // from any other peer is counted as coming from the peer itself. Empty:
  // trust no one. Unset: the loopback addresses when the server listens on
  // a loopback address only (the gateway beside it), else no one: a server
  // reachable from elsewhere must name its gateways.
  std::vector<std::string> trusted_proxies;
  bool trusted_proxies_set = false;
  // Not a setting: the failed-token throttle's clock for tests that start
  // the server in-process (TokenThrottle::Clock); empty = the real clocks.
  std::function<absl::Time()> throttle_clock;
  // Per-developer rate limits on developer routes (service/calls/
  // call_runner.h): calls a second, 0 = no limit (the default), and the
  // burst, 0 = one second's worth. --rate-limit-reads, MDC_RATE_LIMIT_READS;
  // --rate-limit-reads-burst, MDC_RATE_LIMIT_READS_BURST; the same for
  // writes.
  double rate_limit_reads = 0;
  int rate_limit_reads_burst = 0;
  double rate_limit_writes = 0;
  int rate_limit_writes_burst = 0;
  // The heavy-read gate (service/calls/heavy_read_gate.h): heavy reads
  // running at once in the server (--heavy-reads, MDC_HEAVY_READS; 0 = no
  // limit), of one developer running or waiting
  // (--heavy-reads-per-developer, MDC_HEAVY_READS_PER_DEVELOPER; 0 = no
  // limit), and the longest one waits for its turn (--heavy-read-wait,
  // MDC_HEAVY_READ_WAIT; 0 = refuse at once).
  int heavy_reads = 2;
  int heavy_reads_per_developer = 2;
  absl::Duration heavy_read_wait = absl::Seconds(10);
  // --statement-timeout, MDC_STATEMENT_TIMEOUT: PostgreSQL statement_timeout
  // of every pooled connection, so a stuck statement cannot hold a
  // connection for ever; below the gateway's MDC_CALL_TIMEOUT (30s). Zero:
  // none.
  absl::Duration statement_timeout = absl::Seconds(25);
  // --retention-months, MDC_RETENTION_MONTHS: market history kept, in whole
  // months before the current one (service/lifecycle/history_maintenance.h);
  // older monthly partitions are dropped. 0 = keep everything (default).
  int retention_months = 0;
  // --compact-after-days, MDC_COMPACT_AFTER_DAYS: the hourly maintenance
  // compacts the stock quotes of trading days at least this many days
  // before today (docs/architecture.md, "Compacted history"). 0 = never
  // (default); compaction on demand (CompactHistory, `mdc-server compact`)
  // works either way.
  int compact_after_days = 0;
};

// Reads `args` (argv without the program name; "--name=value" or "--name
// value") over the environment that `getenv` gives. Returns
// INVALID_ARGUMENT naming the flag for unknown flags or bad values.
absl::StatusOr<Config> LoadConfig(
    const std::vector<std::string>& args,
    const std::function<const char*(const char*)>& getenv);

// The --help text.
std::string ConfigUsage();

// True when `listen_addr` (host:port, [v6]:port) binds a loopback address
// only (127.0.0.0/8, ::1, localhost): then only local processes can call.
bool ListensOnLoopbackOnly(absl::string_view listen_addr);

}  // namespace mdc

#endif  // MDC_SERVICE_CONFIG_CONFIG_H_
