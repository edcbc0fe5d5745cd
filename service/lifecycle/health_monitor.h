// Keeps the standard grpc.health.v1 status (and the mdc_database_up metric)
// in step with the database, for the whole server ("") and for each service
// name given: a thread asks a probe (in production, a ping of
// the connection pool) every interval and publishes the answer, until
// shutdown begins (Drain) and the server is NOT_SERVING for good.
//
// Thread-safe: Drain may be called from any thread while the monitor runs.
// Once Drain has returned, the monitor never publishes SERVING again.
#ifndef MDC_SERVICE_LIFECYCLE_HEALTH_MONITOR_H_
#define MDC_SERVICE_LIFECYCLE_HEALTH_MONITOR_H_

#include <grpcpp/health_check_service_interface.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "service/metrics/metrics.h"
#include "storage/pool.h"

namespace mdc {

class HealthMonitor {
 public:
  // Whether the database answers. May block (a ping waits for the network);
  // called on the monitor's thread only, never with a lock held.
  using Probe = std::function<bool()>;

  // The production probe: one round trip through `pool`, which must outlive
  // the monitor.
  static Probe PingPool(storage::ConnectionPool& pool);

  // Starts the thread, which probes at once and then every `interval`, and
  // publishes each answer to `health` and `metrics`: first for each of
  // `services` by name (so that a name is known to the health service, not
  // NOT_FOUND), then for every service at once. `health` and `metrics` must
  // outlive the monitor.
  HealthMonitor(Probe probe, grpc::HealthCheckServiceInterface* health,
                Metrics& metrics, absl::Duration interval,
                std::vector<std::string> services = {});

  // Stops the thread (waiting for a probe under way) without publishing.
  ~HealthMonitor();

  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  // Marks the server NOT_SERVING for good (shutdown has begun). Does not wait
  // for a probe under way, only for a publication under way, so NOT_SERVING
  // is the last status published.
  void Drain();

 private:
  void Loop();
  // Ends the loop: no status is published afterwards. Idempotent.
  void Stop() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Publishes `serving` for each of services_, then for every service.
  void Publish(bool serving) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const Probe probe_;
  grpc::HealthCheckServiceInterface* const health_;
  Metrics& metrics_;
  const absl::Duration interval_;
  const std::vector<std::string> services_;

  // Makes "still running? then publish" one step with respect to Drain:
  // without it a probe that found the database up could publish SERVING
  // just after Drain published NOT_SERVING.
  absl::Mutex mu_;
  bool stopped_ ABSL_GUARDED_BY(mu_) = false;
  // Wakes the loop from its wait between probes.
  absl::Notification wake_;
  std::thread thread_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_LIFECYCLE_HEALTH_MONITOR_H_
