// The CallRunner of one service: the same pipeline (and so the same rate
// limits per developer across services), with the service's full name on
// every call's metrics and log line, so that RPCs of two services that
// share a name (DeveloperService and DashboardService GetQuoteTimeline)
// stay apart. Each service holds one instead of the CallRunner itself.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALLS_SERVICE_CALLS_H_
#define MDC_SERVICE_CALLS_SERVICE_CALLS_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <utility>

#include "absl/strings/string_view.h"
#include "service/calls/call_runner.h"

namespace mdc {

class ServiceCalls {
 public:
  // `service` is a string constant: the generated service_full_name(), e.g.
  // v1::DashboardService::service_full_name().
  ServiceCalls(CallRunner& runner, absl::string_view service)
      : runner_(runner), service_(service) {}

  // CallRunner::Run for the RPC `method` (a string constant) of this
  // service.
  template <typename Context, typename... Args>
  grpc::Status Run(Context* context, absl::string_view method, Args&&... args) {
    return runner_.Run(context, Rpc(service_, method),
                       std::forward<Args>(args)...);
  }

  // CallRunner::StartWrite for the RPC `method` (a string constant) of this
  // service.
  template <typename Validate>
  void StartWrite(grpc::CallbackServerContext* context,
                  grpc::ServerUnaryReactor* reactor, absl::string_view method,
                  Validate&& validate) {
    runner_.StartWrite(context, reactor, Rpc(service_, method),
                       std::forward<Validate>(validate));
  }

  CallRunner& runner() { return runner_; }

 private:
  CallRunner& runner_;
  const absl::string_view service_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_SERVICE_CALLS_H_
