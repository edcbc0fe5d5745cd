// Runs the body of every RPC the same way: apply the caller's rate limit,
// authenticate, read the backtest clock and run id, time the call, write one
// structured log line, count it in the metrics, and convert the result to a
// grpc::Status. Services stay thin translations between protobuf and the
// domain.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALLS_CALL_RUNNER_H_
#define MDC_SERVICE_CALLS_CALL_RUNNER_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "domain/backtest_clock.h"
#include "domain/ip_network.h"
#include "domain/token_bucket.h"
#include "service/auth/auth.h"
#include "service/calls/heavy_read_gate.h"
#include "service/calls/rate_limiter.h"
#include "service/calls/rpc_facts.h"
#include "service/calls/write_call.h"
#include "service/metrics/metrics.h"
#include "storage/developer_repository.h"

namespace mdc {

// What a handler knows about the request besides its message.
struct CallContext {
  Caller caller;
  domain::BacktestClock clock;
  std::string run_id;  // x-run-id, for logs
  // x-request-id as the gateway sent it, or one made here when it is absent
  // or invalid (RequestIdOf): every log line of the call carries it.
  std::string request_id;
  // The last x-forwarded-for entry when the peer is a trusted proxy, else
  // the peer.
  std::string client_address;
};

// The per-developer rate limits (MDC_RATE_LIMIT_*); the defaults are off.
// They apply to the RPCs whose option names a rate limit (RpcFacts::rate:
// the developer and dashboard routes), whoever calls them, admins
// included; admin routes and public routes (health, and sign-in, which has
// the failed-token throttle) are not limited.
struct CallLimits {
  domain::RateLimit reads;
  domain::RateLimit writes;
  // The admission gate of the RPCs whose option says heavy_read
  // (MDC_HEAVY_READS*, service/calls/heavy_read_gate.h).
  HeavyReadLimits heavy_reads;
};

// The request id a call logs: `sent` (x-request-id) when it is 1-128
// printable ASCII characters without spaces, else 32 random hex digits.
std::string RequestIdOf(absl::string_view sent);

class CallRunner {
 public:
  // `trusted_proxies`: IP addresses and networks (domain::IpNetwork forms;
  // others never match) whose x-forwarded-for names the client. From any
  // other peer, x-forwarded-for is ignored.
  CallRunner(Authenticator& auth, Metrics& metrics,
             std::vector<std::string> trusted_proxies = {"127.0.0.1", "::1"},
             CallLimits limits = {});

  // Runs `body` for a call of `rpc` (who may call it and which rate limit
  // it counts against are its facts). The answers come in this order: a
  // malformed authorization header is 401; a caller over its rate limit is
  // 429 (RATE_LIMITED, with a retry delay) before the token is looked up,
  // so a refused call costs the database nothing; an unknown token is 401,
  // then the role and headers; a heavy read then takes its turn at the
  // heavy-read gate (waiting for one, or 429 HEAVY_READS_LIMITED), and
  // holds it while `body` runs. The stream RPCs (callback API) call
  // it from a worker thread to open a stream.
  grpc::Status Run(grpc::ServerContextBase* context, const RpcFacts& rpc,
                   absl::FunctionRef<absl::Status(const CallContext&)> body);

  // Starts a developer write served by the gRPC callback API, a call of
  // `rpc` that `reactor` answers: see WriteCall (write_call.h), which the
  // handler then refuses or hands its write to.
  WriteCall StartWrite(grpc::CallbackServerContext* context,
                       grpc::ServerUnaryReactor* reactor, const RpcFacts& rpc) {
    return WriteCall::Start(*this, context, reactor, rpc);
  }

 private:
  // The write path takes Run's steps one at a time.
  friend class WriteCall;

  // The value of the metadata `key` of a call; empty when absent.
  static absl::string_view Header(const grpc::ServerContextBase& context,
                                  absl::string_view key);
  // The call's backtest clock (X-Current-*), or INVALID_ARGUMENT.
  static absl::StatusOr<domain::BacktestClock> ClockOf(
      const grpc::ServerContextBase& context);
  // Logs, counts and converts the outcome of a call.
  grpc::Status Finish(const RpcFacts& rpc, absl::Time start,
                      const CallContext& call, const absl::Status& status);

  // The CallContext of a call, before authentication.
  CallContext Describe(const grpc::ServerContextBase& context) const;
  // See CallContext::client_address.
  std::string ClientAddress(const grpc::ServerContextBase& context) const;
  // Whether the gRPC peer `peer` is one of trusted_proxies_.
  bool TrustedPeer(const std::string& peer) const;
  // The rate limit of a call of `rpc`, counted against the holder of the
  // authorization header's token (a malformed header is left for
  // authentication to refuse).
  absl::Status Limit(const grpc::ServerContextBase& context,
                     const RpcFacts& rpc);
  // The limiter of `rate`; nullptr for RateClass::kNone.
  RateLimiter* LimiterOf(RateClass rate);

  Authenticator& auth_;
  Metrics& metrics_;
  const std::vector<domain::IpNetwork> trusted_proxies_;
  // Unique among the runners of the process, so TrustedPeer's per-thread
  // memory never answers for a runner that took a destroyed one's address.
  const uint64_t id_;
  RateLimiter reads_;
  RateLimiter writes_;
  HeavyReadGate heavy_reads_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_CALL_RUNNER_H_
