#include "service/lifecycle/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>

#include <initializer_list>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/secret_box.h"
#include "domain/tokens.h"
#include "grpc/health/v1/health.pb.h"
#include "service/broker/db_broker_credentials.h"
#include "service/lifecycle/grpc_limits.h"
#include "service/lifecycle/tls_credentials.h"
#include "storage/migrations.h"

namespace mdc {

std::vector<std::string> HealthCheckedServices() {
  return {v1::CollectorService::service_full_name(),
          v1::DeveloperService::service_full_name(),
          v1::DashboardService::service_full_name(),
          v1::AdminService::service_full_name(),
          v1::HealthService::service_full_name(),
          v1::StreamService::service_full_name(),
          v1::ExportService::service_full_name(),
          v1::ImportService::service_full_name()};
}

Server::Server(const Config& config) : config_(config) {}

absl::StatusOr<std::unique_ptr<Server>> Server::Start(const Config& config) {
  std::unique_ptr<Server> s(new Server(config));
  // First: a bad key pair stops start-up at once, not after the database.
  auto credentials =
      GrpcServerCredentials(config.grpc_tls_cert, config.grpc_tls_key);
  if (!credentials.ok()) return credentials.status();
  if (auto opened = s->OpenDatabase(); !opened.ok()) return opened;
  s->OpenReplica();
  if (auto served = s->metrics_->Serve(config.metrics_addr); !served.ok()) {
    return served;
  }
  s->BuildCallPipeline();
  auto secret_box = SecretBoxOf(config.secret_key);
  if (!secret_box.ok()) return secret_box.status();
  s->BuildBroker(*secret_box);
  s->BuildServices(*std::move(secret_box));
  if (auto listening = s->Listen(*credentials); !listening.ok()) {
    return listening;
  }
  log::Info("serving",
            {{"grpc_addr", config.grpc_addr},
             {"port", s->port_},
             {"grpc_tls", config.grpc_tls_cert.empty() ? "off" : "on"},
             {"metrics_addr", config.metrics_addr},
             {"read_replica", config.database_read_url.empty() ? "off" : "on"},
             {"version", MDC_VERSION}});
  return s;
}

absl::Status Server::OpenDatabase() {
  // Before the pool, which reports to it.
  metrics_ = std::make_unique<Metrics>();
  market_commits_ = std::make_unique<WakeSignal>();
  storage_observer_ = std::make_unique<CommittedWrites>(
      metrics_->storage_observer(), *market_commits_);
  pool_ = std::make_unique<storage::ConnectionPool>(
      config_.database_url, config_.db_pool_size, config_.statement_timeout,
      storage_observer_.get());
  if (auto ready = storage::WaitForDatabase(
          *pool_, absl::Seconds(config_.db_wait_seconds));
      !ready.ok()) {
    return ready;
  }
  auto applied =
      storage::ApplyMigrations(*pool_, storage::EmbeddedMigrations());
  if (!applied.ok()) return applied.status();
  if (!applied->empty()) {
    log::Info("migrations applied", {{"names", absl::StrJoin(*applied, ",")}});
  }
  repos_ = std::make_unique<storage::Repositories>(*pool_);
  if (!config_.admin_token.empty()) {
    auto admin = repos_->developers.UpsertAdmin(
        "admin", domain::HashToken(config_.admin_token));
    if (!admin.ok()) return admin.status();
    log::Info("bootstrap admin ready", {{"username", admin->username}});
  }
  history_ = std::make_unique<HistoryMaintenance>(
      repos_->partitions, config_.retention_months, absl::Hours(1),
      &repos_->compaction, config_.compact_after_days, &repos_->storage_report);
  return absl::OkStatus();
}

void Server::OpenReplica() {
  // The read replica: not waited for, and not migrated (it replays the
  // primary's migrations). Until its monitor finds it a standby within the
  // bound, its reads go to the primary. Its pool reports to no observer:
  // the mdc_db_pool_* series describe the primary's pool.
  if (config_.database_read_url.empty()) return;
  replica_pool_ = std::make_unique<storage::ConnectionPool>(
      config_.database_read_url, config_.db_pool_size,
      config_.statement_timeout);
  replica_repos_ = std::make_unique<storage::Repositories>(*replica_pool_);
  replica_monitor_ = std::make_unique<ReplicaMonitor>(
      ReplicaMonitor::OverPools(*pool_, *replica_pool_),
      config_.replica_max_lag, metrics_->replica());
}

void Server::BuildCallPipeline() {
  throttle_ =
      std::make_unique<TokenThrottle>(repos_->sign_ins, config_.throttle_clock);
  auth_ = std::make_unique<Authenticator>(repos_->developers, *throttle_);
  calls_ = std::make_unique<CallRunner>(
      *auth_, *metrics_, config_.trusted_proxies,
      CallLimits{domain::MakeRateLimit(config_.rate_limit_reads,
                                       config_.rate_limit_reads_burst),
                 domain::MakeRateLimit(config_.rate_limit_writes,
                                       config_.rate_limit_writes_burst),
                 HeavyReadLimits{config_.heavy_reads,
                                 config_.heavy_reads_per_developer,
                                 config_.heavy_read_wait}});
}

absl::StatusOr<std::optional<domain::SecretBox>> Server::SecretBoxOf(
    const std::string& secret_key) {
  if (secret_key.empty()) return std::nullopt;
  auto box = domain::SecretBox::FromKeyText(secret_key);
  if (!box.ok()) return box.status();
  return *std::move(box);
}

void Server::BuildBroker(const std::optional<domain::SecretBox>& secret_box) {
  http_ = std::make_unique<CurlHttpClient>();
  // Credentials an admin stored (PUT /v1/admin/broker) win over the
  // environment's.
  env_broker_credentials_ = std::make_unique<EnvBrokerCredentials>(
      config_.broker_api_key, config_.broker_api_secret);
  broker_credentials_ = std::make_unique<DbBrokerCredentials>(
      repos_->broker_credentials, secret_box, env_broker_credentials_.get());
  broker_tokens_ = std::make_unique<BrokerTokens>(
      repos_->broker_tokens, *broker_credentials_, *http_,
      config_.broker_token_url, absl::Seconds(config_.broker_timeout_seconds));
}

namespace {

DeveloperService::Stores DeveloperStores(storage::Repositories& r) {
  return {r.shortlists, r.nifty,         r.quotes,
          r.holidays,   r.quote_batches, r.instruments};
}

ExportStores ExportStoresOf(storage::Repositories& r) {
  return {r.market_events, r.quotes, r.nifty, r.quote_batches, r.instruments};
}

DashboardService::Stores DashboardStores(storage::Repositories& r) {
  return {r.shortlists, r.quotes,   r.nifty,           r.quote_batches,
          r.runs,       r.coverage, r.developer_writes};
}

// The replica's repositories for a service, when a replica is configured.
template <typename Stores>
std::optional<ReplicaStores<Stores>> ReplicaOf(
    storage::Repositories* replica, ReplicaMonitor* monitor,
    Stores (*stores)(storage::Repositories&)) {
  if (replica == nullptr) return std::nullopt;
  return ReplicaStores<Stores>{stores(*replica), *monitor};
}

}  // namespace

void Server::BuildServices(std::optional<domain::SecretBox> secret_box) {
  storage::Repositories& repos = *repos_;
  // The collectors' freshness: every committed collector write is tallied
  // (its CommittedWrite carries the tally).
  write_activity_ = std::make_unique<WriteActivity>(
      repos.developer_writes, metrics_->freshness(), absl::Seconds(1),
      absl::Seconds(5));
  storage_observer_->TallyInto(write_activity_.get());
  collector_ = std::make_unique<CollectorService>(
      *calls_, CollectorService::Stores{repos.shortlists, repos.nifty,
                                        repos.quotes, repos.holidays});
  developer_ = std::make_unique<DeveloperService>(
      *calls_, DeveloperStores(repos), *broker_tokens_,
      ReplicaOf(replica_repos_.get(), replica_monitor_.get(),
                &DeveloperStores));
  dashboard_ = std::make_unique<DashboardService>(
      *calls_, *auth_, DashboardStores(repos),
      ReplicaOf(replica_repos_.get(), replica_monitor_.get(),
                &DashboardStores));
  admin_ = std::make_unique<AdminService>(
      *calls_,
      AdminService::Stores{repos.developers, repos.holidays, repos.market_data,
                           repos.maintenance, repos.broker_credentials,
                           repos.compaction, repos.storage_report,
                           repos.instruments},
      std::move(secret_box));
  health_ = std::make_unique<HealthService>(*calls_, *pool_);
  stream_slots_ = std::make_unique<StreamSlots>(config_.stream_limits);
  export_ = std::make_unique<ExportService>(
      *calls_, ExportStoresOf(repos), *stream_slots_,
      ReplicaOf(replica_repos_.get(), replica_monitor_.get(), &ExportStoresOf));
  import_ = std::make_unique<ImportService>(*calls_, *pool_);
  stream_ = std::make_unique<StreamService>(
      *calls_, *pool_, config_.database_url, *market_commits_,
      absl::Seconds(config_.watch_heartbeat_seconds), *stream_slots_);
}

absl::Status Server::Listen(
    const std::shared_ptr<grpc::ServerCredentials>& credentials) {
  // gRPC's built-in grpc.health.v1 service answers Check and Watch but does
  // not register its descriptor; asking for ours here links the generated
  // grpc/health/v1/health.proto in, so that reflection can describe it.
  if (grpc::health::v1::HealthCheckResponse::descriptor() == nullptr) {
    return absl::InternalError("grpc.health.v1 descriptor missing");
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config_.grpc_addr, credentials, &port_);
  for (grpc::Service* service : std::initializer_list<grpc::Service*>{
           collector_.get(), developer_.get(), dashboard_.get(), admin_.get(),
           health_.get(), stream_.get(), export_.get(), import_.get()}) {
    builder.RegisterService(service);
  }
  ApplyGrpcLimits(config_, builder);
  grpc_server_ = builder.BuildAndStart();
  if (grpc_server_ == nullptr || port_ == 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", config_.grpc_addr));
  }
  monitor_ = std::make_unique<HealthMonitor>(
      HealthMonitor::PingPool(*pool_), grpc_server_->GetHealthCheckService(),
      *metrics_, absl::Seconds(2), HealthCheckedServices());
  return absl::OkStatus();
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
  storage_observer_->TallyInto(nullptr);
  write_activity_.reset();
  log::Info("stopped");
}

}  // namespace mdc
