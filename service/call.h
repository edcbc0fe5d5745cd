// Runs the body of every RPC the same way: authenticate, read the backtest
// clock and run id, time the call, write one structured log line, count it
// in the metrics, and convert the result to a grpc::Status. Services stay
// thin translations between protobuf and the domain.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALL_H_
#define MDC_SERVICE_CALL_H_

#include <grpcpp/server_context.h>

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "service/auth.h"
#include "service/domain/backtest_clock.h"
#include "service/metrics.h"

namespace mdc {

// What a handler knows about the request besides its message.
struct CallContext {
  Caller caller;
  domain::BacktestClock clock;
  std::string run_id;          // x-run-id, for logs
  std::string client_address;  // x-forwarded-for, else the peer
};

class CallRunner {
 public:
  CallRunner(Authenticator& auth, Metrics& metrics)
      : auth_(auth), metrics_(metrics) {}

  grpc::Status Run(grpc::ServerContext* context, absl::string_view method,
                   Access access,
                   absl::FunctionRef<absl::Status(const CallContext&)> body);

 private:
  Authenticator& auth_;
  Metrics& metrics_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALL_H_
