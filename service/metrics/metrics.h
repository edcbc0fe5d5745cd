// Prometheus metrics of the server, served as text on their own port
// (MDC_METRICS_ADDR) so scraping never competes with API traffic.
//
// Thread-safe.
#ifndef MDC_SERVICE_METRICS_METRICS_H_
#define MDC_SERVICE_METRICS_METRICS_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace prometheus {
class Exposer;
class Registry;
template <typename T>
class Family;
class Counter;
class Histogram;
class Gauge;
}  // namespace prometheus

namespace mdc {

class Metrics {
 public:
  Metrics();
  ~Metrics();

  // Starts serving /metrics on `address` (host:port). Does nothing for an
  // empty address.
  absl::Status Serve(const std::string& address);

  // One finished RPC.
  void RecordCall(absl::string_view method, absl::StatusCode code,
                  double seconds);

  // 1 while the database answers, 0 while it does not.
  void SetDatabaseUp(bool up);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Family<prometheus::Counter>* calls_;
  prometheus::Family<prometheus::Histogram>* latency_;
  prometheus::Gauge* database_up_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_METRICS_METRICS_H_
