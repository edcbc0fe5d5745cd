// Runs the body of every RPC the same way: authenticate, read the backtest
// clock and run id, time the call, write one structured log line, count it
// in the metrics, and convert the result to a grpc::Status. Services stay
// thin translations between protobuf and the domain.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALL_H_
#define MDC_SERVICE_CALL_H_

#include <grpcpp/server_context.h>

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "service/auth.h"
#include "service/domain/backtest_clock.h"
#include "service/metrics.h"
#include "storage/developer_repository.h"

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

  // Stores a request as its caller and returns the developer holding
  // `token_hash`, or none (having written nothing) when nobody does: one
  // statement that authenticates and writes (storage::WriterOf).
  using WriteFunction =
      absl::FunctionRef<absl::StatusOr<std::optional<storage::DeveloperRecord>>(
          const std::string& token_hash)>;

  // Run for a developer write that authenticates itself: `validate` checks
  // the request without the database, then `write` stores it. One database
  // statement per request instead of a token lookup and a write; the
  // answers are Run's (401 for a bad token comes before 400 for a bad
  // body: an invalid request has its token looked up on its own).
  grpc::Status RunWrite(grpc::ServerContext* context, absl::string_view method,
                        absl::FunctionRef<absl::Status()> validate,
                        WriteFunction write);

 private:
  // Logs, counts and converts the outcome of a call.
  grpc::Status Finish(absl::string_view method, absl::Time start,
                      const CallContext& call, const absl::Status& status);

  Authenticator& auth_;
  Metrics& metrics_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALL_H_
