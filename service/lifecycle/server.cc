#include "service/lifecycle/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <algorithm>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/secret_box.h"
#include "domain/tokens.h"
#include "grpc/health/v1/health.pb.h"
#include "service/broker/db_broker_credentials.h"
#include "service/lifecycle/tls_credentials.h"
#include "storage/migrations.h"

namespace mdc {
namespace {

constexpr int kMaxReceiveBytes = 16 << 20;
constexpr int kMaxSendBytes = 64 << 20;

}  // namespace

std::vector<std::string> HealthCheckedServices() {
  return {v1::CollectorService::service_full_name(),
          v1::DeveloperService::service_full_name(),
          v1::DashboardService::service_full_name(),
          v1::AdminService::service_full_name(),
          v1::HealthService::service_full_name(),
          v1::StreamService::service_full_name()};
}

Server::Server(const Config &config) : config_(config) {}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const Config &config) {
  std::unique_ptr<Server> s(new Server(config));
  // First: a bad key pair stops start-up at once, not after the database.
  auto credentials =
      GrpcServerCredentials(config.grpc_tls_cert, config.grpc_tls_key);
  if (!credentials.ok()) return credentials.status();
  // Before the pool, which reports to it.
  s->metrics_ = std::make_unique<Metrics>();
  s->market_commits_ = std::make_unique<WakeSignal>();
  s->storage_observer_ = std::make_unique<MarketCommitObserver>(
      s->metrics_->storage_observer(), *s->market_commits_);
  s->pool_ = std::make_unique<storage::ConnectionPool>(
      config.database_url, config.db_pool_size, config.statement_timeout,
      s->storage_observer_.get());
  if (auto ready = storage::WaitForDatabase(
          *s->pool_, absl::Seconds(config.db_wait_seconds));
      !ready.ok()) {
    return ready;
  }
  auto applied =
      storage::ApplyMigrations(*s->pool_, storage::EmbeddedMigrations());
  if (!applied.ok()) return applied.status();
  if (!applied->empty()) {
    log::Info("migrations applied", {{"names", absl::StrJoin(*applied, ",")}});
  }
  s->repos_ = std::make_unique<storage::Repositories>(*s->pool_);
  if (!config.admin_token.empty()) {
    auto admin = s->repos_->developers.UpsertAdmin(
        "admin", domain::HashToken(config.admin_token));
    if (!admin.ok()) return admin.status();
    log::Info("bootstrap admin ready", {{"username", admin->username}});
  }
  s->history_ = std::make_unique<HistoryMaintenance>(
      s->repos_->partitions, config.retention_months, absl::Hours(1));

  storage::Repositories &repos = *s->repos_;
  // The read replica: not waited for, and not migrated (it replays the
  // primary's migrations). Until its monitor finds it a standby within the
  // bound, its reads go to the primary. Its pool reports to no observer:
  // the mdc_db_pool_* series describe the primary's pool.
  if (!config.database_read_url.empty()) {
    s->replica_pool_ = std::make_unique<storage::ConnectionPool>(
        config.database_read_url, config.db_pool_size,
        config.statement_timeout);
    s->replica_repos_ =
        std::make_unique<storage::Repositories>(*s->replica_pool_);
    s->replica_monitor_ = std::make_unique<ReplicaMonitor>(
        ReplicaMonitor::OverPools(*s->pool_, *s->replica_pool_),
        config.replica_max_lag, s->metrics_->replica());
  }
  storage::Repositories *replica = s->replica_repos_.get();
  if (auto served = s->metrics_->Serve(config.metrics_addr); !served.ok()) {
    return served;
  }
  s->throttle_ = std::make_unique<TokenThrottle>(repos.sign_ins);
  s->auth_ = std::make_unique<Authenticator>(repos.developers, *s->throttle_);
  s->calls_ = std::make_unique<CallRunner>(
      *s->auth_, *s->metrics_, config.trusted_proxies,
      CallLimits{domain::MakeRateLimit(config.rate_limit_reads,
                                       config.rate_limit_reads_burst),
                 domain::MakeRateLimit(config.rate_limit_writes,
                                       config.rate_limit_writes_burst)});
  s->write_activity_ = std::make_unique<WriteActivity>(
      repos.developer_writes, s->metrics_->freshness(), absl::Seconds(1),
      absl::Seconds(5));
  s->collector_ = std::make_unique<CollectorService>(
      *s->calls_,
      CollectorService::Stores{repos.shortlists, repos.nifty, repos.quotes,
                               repos.holidays},
      [activity = s->write_activity_.get()](const domain::WriteTally &tally) {
        activity->Record(tally);
      });
  std::optional<domain::SecretBox> secret_box;
  if (!config.secret_key.empty()) {
    auto box = domain::SecretBox::FromKeyText(config.secret_key);
    if (!box.ok()) return box.status();
    secret_box = *std::move(box);
  }
  s->http_ = std::make_unique<CurlHttpClient>();
  // Credentials an admin stored (PUT /v1/admin/broker) win over the
  // environment's.
  s->env_broker_credentials_ = std::make_unique<EnvBrokerCredentials>(
      config.broker_api_key, config.broker_api_secret);
  s->broker_credentials_ = std::make_unique<DbBrokerCredentials>(
      repos.broker_credentials, secret_box, s->env_broker_credentials_.get());
  s->broker_tokens_ = std::make_unique<BrokerTokens>(
      repos.broker_tokens, *s->broker_credentials_, *s->http_,
      config.broker_token_url, absl::Seconds(config.broker_timeout_seconds));
  auto developer_stores = [](storage::Repositories &r) {
    return DeveloperService::Stores{r.shortlists, r.nifty, r.quotes,
                                    r.holidays};
  };
  auto dashboard_stores = [](storage::Repositories &r) {
    return DashboardService::Stores{r.shortlists,    r.quotes,
                                    r.quote_batches, r.runs,
                                    r.coverage,      r.developer_writes};
  };
  std::optional<ReplicaStores<DeveloperService::Stores>> developer_replica;
  std::optional<ReplicaStores<DashboardService::Stores>> dashboard_replica;
  if (replica != nullptr) {
    developer_replica.emplace(ReplicaStores<DeveloperService::Stores>{
        developer_stores(*replica), *s->replica_monitor_});
    dashboard_replica.emplace(ReplicaStores<DashboardService::Stores>{
        dashboard_stores(*replica), *s->replica_monitor_});
  }
  s->developer_ =
      std::make_unique<DeveloperService>(*s->calls_, developer_stores(repos),
                                         *s->broker_tokens_, developer_replica);
  s->dashboard_ = std::make_unique<DashboardService>(
      *s->calls_, *s->auth_, dashboard_stores(repos), dashboard_replica);
  s->admin_ = std::make_unique<AdminService>(
      *s->calls_,
      AdminService::Stores{repos.developers, repos.holidays, repos.market_data,
                           repos.maintenance, repos.broker_credentials},
      std::move(secret_box));
  s->health_ = std::make_unique<HealthService>(*s->calls_, *s->pool_);
  s->stream_ = std::make_unique<StreamService>(
      *s->calls_, *s->pool_, config.database_url, *s->market_commits_,
      absl::Seconds(config.watch_heartbeat_seconds));

  // gRPC's built-in grpc.health.v1 service answers Check and Watch but does
  // not register its descriptor; asking for ours here links the generated
  // grpc/health/v1/health.proto in, so that reflection can describe it.
  if (grpc::health::v1::HealthCheckResponse::descriptor() == nullptr) {
    return absl::InternalError("grpc.health.v1 descriptor missing");
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  // gRPC sets SO_REUSEPORT by default: a second server on a taken port
  // would silently share it instead of failing to start.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(config.grpc_addr, *credentials, &s->port_);
  builder.RegisterService(s->collector_.get());
  builder.RegisterService(s->developer_.get());
  builder.RegisterService(s->dashboard_.get());
  builder.RegisterService(s->admin_.get());
  builder.RegisterService(s->health_.get());
  builder.RegisterService(s->stream_.get());
  // Handlers block on libpq; bound the threads so overload queues instead of
  // exhausting memory. An RPC arriving while every thread is busy would be
  // refused with RESOURCE_EXHAUSTED, so each connection may carry at most
  // half as many concurrent calls as there are threads (the other half
  // covers pollers and threads between calls): a client (the gateway)
  // queues the rest. Idle threads stay polling: with gRPC's default of at most
  // two pollers, the sync server would start and end a thread for most requests
  // under load. Streams (callback API, no thread while idle) count against the
  // per-connection limit too: HTTP/2 cannot tell a watch from a blocking call,
  // and raising the limit for them would let one connection's blocking calls
  // outnumber the threads. Watchers open more connections instead: the
  // gateway's stream pool (MDC_GATEWAY_STREAMS_PER_CONNECTION) and the clients.
  grpc::ResourceQuota quota("mdc-server");
  quota.SetMaxThreads(config.max_threads);
  builder.SetResourceQuota(quota);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                             std::max(1, config.max_threads / 2));
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 2);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, config.max_threads);
  // MDC_MAX_CONNECTION_AGE: GOAWAY to connections that old; the client
  // reconnects, and one that resolves the servers through DNS (the gateway)
  // resolves the name again, so servers added since get calls. The grace
  // stays gRPC's default (unbounded): calls and watches in flight finish.
  if (config.max_connection_age > absl::ZeroDuration()) {
    builder.AddChannelArgument(
        GRPC_ARG_MAX_CONNECTION_AGE_MS,
        static_cast<int>(absl::ToInt64Milliseconds(config.max_connection_age)));
  }
  builder.SetMaxReceiveMessageSize(kMaxReceiveBytes);
  builder.SetMaxSendMessageSize(kMaxSendBytes);
  s->grpc_server_ = builder.BuildAndStart();
  if (s->grpc_server_ == nullptr || s->port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", config.grpc_addr));
  }
  s->monitor_ = std::make_unique<HealthMonitor>(
      HealthMonitor::PingPool(*s->pool_),
      s->grpc_server_->GetHealthCheckService(), *s->metrics_, absl::Seconds(2),
      HealthCheckedServices());
  log::Info("serving",
            {{"grpc_addr", config.grpc_addr},
             {"port", s->port_},
             {"grpc_tls", config.grpc_tls_cert.empty() ? "off" : "on"},
             {"metrics_addr", config.metrics_addr},
             {"read_replica", config.database_read_url.empty() ? "off" : "on"},
             {"version", MDC_VERSION}});
  return s;
}

void Server::Shutdown() {
  log::Info("draining", {{"seconds", config_.drain_seconds}});
  monitor_->Drain();
  // Watches never end by themselves: end them (UNAVAILABLE, with the cursor
  // to resume from) so the drain does not wait for them.
  stream_->Stop();
  grpc_server_->Shutdown(std::chrono::system_clock::now() +
                         std::chrono::seconds(config_.drain_seconds));
  grpc_server_->Wait();
  monitor_.reset();
  history_.reset();
  write_activity_.reset();
  log::Info("stopped");
}

}  // namespace mdc
