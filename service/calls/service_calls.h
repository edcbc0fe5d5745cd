// The CallRunner of one service: the same pipeline (and so the same rate
// limits per developer across services), and the facts of each of the
// service's RPCs, read from its descriptors (rpc_facts.h). A handler names
// its RPC by passing its request: the RPC of the service that takes that
// request type, whose name goes on the call's metrics and log line, whose
// option says who may call it, which rate limit it counts against and
// which database its reads go to. So RPCs of two services that share a
// name (DeveloperService and DashboardService GetQuoteTimeline) stay apart,
// and no handler spells a method name.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALLS_SERVICE_CALLS_H_
#define MDC_SERVICE_CALLS_SERVICE_CALLS_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "service/calls/call_runner.h"
#include "service/calls/rpc_facts.h"
#include "service/calls/write_call.h"

namespace mdc {

class ServiceCalls {
 public:
  // `service` is the generated service_full_name(), e.g.
  // v1::DashboardService::service_full_name(). Stops the process, naming
  // the RPC, when an RPC of the service lacks its options (the tests of
  // the protos make sure none does).
  ServiceCalls(CallRunner& runner, absl::string_view service);

  // The facts of the RPC of this service that takes `request`'s type. Stops
  // the process when there is none (a handler passed another service's
  // request: every RPC is called by the tests).
  const RpcFacts& Of(const google::protobuf::Message& request) const;

  // CallRunner::Run for the RPC of `request`.
  grpc::Status Run(grpc::ServerContextBase* context,
                   const google::protobuf::Message& request,
                   absl::FunctionRef<absl::Status(const CallContext&)> body) {
    return runner_.Run(context, Of(request), body);
  }

  // Run for a read: `body(stores, call)` on the repositories its RPC's
  // reads go to (`reads`, a RoutedReads, picks them, and runs `body` again
  // on the primary's when the replica fails), with `response` cleared
  // before each run. The opening of every read handler:
  //   return calls_.Read(context, *request, response, reads_,
  //                      [&](const Stores& stores, const CallContext& call)
  //                          -> absl::Status { ... });
  template <typename Reads, typename Response, typename Body>
  grpc::Status Read(grpc::ServerContextBase* context,
                    const google::protobuf::Message& request,
                    Response* response, const Reads& reads, Body&& body) {
    const RpcFacts& rpc = Of(request);
    return runner_.Run(context, rpc, [&](const CallContext& call) {
      return reads.Read(rpc.reads_from,
                        [&](const auto& stores) -> absl::Status {
                          response->Clear();
                          return body(stores, call);
                        });
    });
  }

  // CallRunner::StartWrite for the RPC of `request`, answered through the
  // call's default reactor. The opening of every write handler (see
  // WriteCall):
  //   WriteCall call = calls_.StartWrite(context, request);
  //   if (!call.open()) return call.reactor();
  WriteCall StartWrite(grpc::CallbackServerContext* context,
                       const google::protobuf::Message& request) {
    return runner_.StartWrite(context, context->DefaultReactor(), Of(request));
  }

  CallRunner& runner() { return runner_; }

 private:
  CallRunner& runner_;
  ServiceRpcs rpcs_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_SERVICE_CALLS_H_
