// The mdc server's lifecycle: connect to the database and migrate it,
// bootstrap the first admin, wire storage, auth and the gRPC services
// together, serve, and drain on shutdown.
//
// Not thread-safe: one thread starts the server and shuts it down, once.
#ifndef MDC_SERVICE_LIFECYCLE_SERVER_H_
#define MDC_SERVICE_LIFECYCLE_SERVER_H_

#include <grpcpp/server.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "domain/secret_box.h"
#include "service/api/admin_service.h"
#include "service/api/collector_service.h"
#include "service/api/dashboard/dashboard_service.h"
#include "service/api/developer_service.h"
#include "service/api/export_service.h"
#include "service/api/health_service.h"
#include "service/api/import_service.h"
#include "service/api/stream_service.h"
#include "service/auth/auth.h"
#include "service/broker/broker_credentials.h"
#include "service/broker/broker_tokens.h"
#include "service/broker/http_client.h"
#include "service/calls/call_runner.h"
#include "service/config/config.h"
#include "service/lifecycle/committed_writes.h"
#include "service/lifecycle/health_monitor.h"
#include "service/lifecycle/history_maintenance.h"
#include "service/lifecycle/write_activity.h"
#include "service/metrics/metrics.h"
#include "service/replica/replica_monitor.h"
#include "service/streams/wake_signal.h"
#include "storage/pool.h"
#include "storage/repositories.h"

namespace mdc {

// The names grpc.health.v1 reports a status for besides "" (the whole
// server): the full names of the mdc services, such as
// "mdc.v1.CollectorService". All share the database's status.
std::vector<std::string> HealthCheckedServices();

class Server {
 public:
  // Returns once the server accepts calls. UNAVAILABLE when the database
  // stays unreachable for config.db_wait_seconds or the port is taken.
  static absl::StatusOr<std::unique_ptr<Server>> Start(const Config& config);

  // Publishes NOT_SERVING for good (HealthMonitor::Drain), stops accepting
  // calls, waits up to config.drain_seconds for calls in flight, then
  // cancels the rest.
  void Shutdown();

  // The port actually bound (useful with port 0).
  int port() const { return port_; }

 private:
  explicit Server(const Config& config);

  // The steps of Start, in order, each with one job.
  // Metrics, the pool, migrations, the bootstrap admin, the maintenance.
  absl::Status OpenDatabase();
  // The read replica's pool and monitor, when DATABASE_READ_URL is set.
  void OpenReplica();
  // The failed-token throttle, authentication and the CallRunner.
  void BuildCallPipeline();
  // The key broker credentials are sealed with (MDC_SECRET_KEY), if any.
  static absl::StatusOr<std::optional<domain::SecretBox>> SecretBoxOf(
      const std::string& secret_key);
  // Where broker credentials and tokens come from.
  void BuildBroker(const std::optional<domain::SecretBox>& secret_box);
  // The gRPC services over the repositories.
  void BuildServices(std::optional<domain::SecretBox> secret_box);
  // The gRPC listener (ApplyGrpcLimits) and its health monitor.
  absl::Status Listen(
      const std::shared_ptr<grpc::ServerCredentials>& credentials);

  Config config_;
  int port_ = 0;
  // Before the pool, which reports to it until destroyed.
  std::unique_ptr<Metrics> metrics_;
  // Raised when market records were committed; the pool reports through
  // the observer, which passes everything on to metrics_ and each
  // committed write to the tallies (write_activity_) and market_commits_.
  std::unique_ptr<WakeSignal> market_commits_;
  std::unique_ptr<CommittedWrites> storage_observer_;
  // Before the pool, whose write batcher answers its failure counts.
  std::unique_ptr<TokenThrottle> throttle_;
  std::unique_ptr<storage::ConnectionPool> pool_;
  std::unique_ptr<storage::Repositories> repos_;
  // The read replica's (DATABASE_READ_URL), when configured; the monitor
  // before the pool it asks is destroyed.
  std::unique_ptr<storage::ConnectionPool> replica_pool_;
  std::unique_ptr<storage::Repositories> replica_repos_;
  std::unique_ptr<ReplicaMonitor> replica_monitor_;
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<CallRunner> calls_;
  std::unique_ptr<HttpClient> http_;
  std::unique_ptr<BrokerCredentialsSource> env_broker_credentials_;
  std::unique_ptr<BrokerCredentialsSource> broker_credentials_;
  std::unique_ptr<BrokerTokens> broker_tokens_;
  std::unique_ptr<CollectorService> collector_;
  std::unique_ptr<DeveloperService> developer_;
  std::unique_ptr<DashboardService> dashboard_;
  std::unique_ptr<AdminService> admin_;
  std::unique_ptr<HealthService> health_;
  // Before the streaming services, which give places back to it.
  std::unique_ptr<StreamSlots> stream_slots_;
  std::unique_ptr<StreamService> stream_;
  std::unique_ptr<ExportService> export_;
  std::unique_ptr<ImportService> import_;
  std::unique_ptr<grpc::Server> grpc_server_;
  std::unique_ptr<HealthMonitor> monitor_;
  // Partitions ahead and the retention (MDC_RETENTION_MONTHS).
  std::unique_ptr<HistoryMaintenance> history_;
  // Told of committed collector writes by storage_observer_; reset after
  // the drain (having been detached), so that the last writes' tallies are
  // merged.
  std::unique_ptr<WriteActivity> write_activity_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_SERVER_H_
