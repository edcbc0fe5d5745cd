// One developer write served by the gRPC callback API, from its handler to
// its answer: the write path's counterpart of ServiceCalls::Read. A write
// handler reads top to bottom (service/api/collector_service.cc):
//
//   WriteCall call = calls_.StartWrite(context, request);
//   if (!call.open()) return call.reactor();  // answered: 401, 403, 429...
//   auto value = domain::ValidateX(...);
//   if (!value.ok()) return call.Refuse(value.status());
//   stores_.x.Upsert(*value, call.token_hash(), call.Committed());
//   return call.reactor();
//
// The handler returns at once and no thread waits on the database: the
// repository runs the write's completion (Committed) when the write has
// committed, which answers the call. One statement authenticates the writer
// and writes (MDC_WRITER_CTE), so the writer is known only then.
//
// The answers come in CallRunner::Run's order:
//   1. an RPC whose access fact (proto options) is not `developer` is
//      PERMISSION_DENIED before anything else: the writer is authenticated
//      inside the statement that writes, so no role could be checked
//      before the write;
//   2. a missing or malformed authorization header is UNAUTHENTICATED;
//   3. a client address the failed-token throttle locked is
//      RESOURCE_EXHAUSTED (AUTH_THROTTLED);
//   4. a caller over the write rate limit is RESOURCE_EXHAUSTED
//      (RATE_LIMITED), before anything reaches the database;
//   5. a bad X-Current-* header, and then a bad body (Refuse), are
//      INVALID_ARGUMENT, but only once the token has been looked up
//      (without blocking): an unknown token is UNAUTHENTICATED first;
//   6. the write: UNAUTHENTICATED, having written nothing, when nobody holds
//      the token; OK once it has committed.
// Every answer is logged and counted as Run's are (CallRunner::Finish).
//
// Move-only. Not thread-safe: the handler's thread uses it, then the
// completion it hands out.
#ifndef MDC_SERVICE_CALLS_WRITE_CALL_H_
#define MDC_SERVICE_CALLS_WRITE_CALL_H_

#include <grpcpp/server_context.h>
#include <grpcpp/support/server_callback.h>

#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "service/calls/rpc_facts.h"
#include "storage/developer_repository.h"

namespace mdc {

class CallRunner;

class WriteCall {
 public:
  // Checks 1-5 of the order above for a call of `rpc`; the returned call is
  // open when they passed, and answered otherwise.
  static WriteCall Start(CallRunner& runner,
                         grpc::CallbackServerContext* context,
                         grpc::ServerUnaryReactor* reactor,
                         const RpcFacts& rpc);

  WriteCall(WriteCall&&) = default;
  WriteCall& operator=(WriteCall&&) = delete;
  WriteCall(const WriteCall&) = delete;
  WriteCall& operator=(const WriteCall&) = delete;
  // A call its handler neither refused nor wrote is answered INTERNAL.
  ~WriteCall();

  // Whether the handler still has to refuse or write it: false once it has
  // been answered, or handed to its completion.
  bool open() const { return pending_ != nullptr; }

  // What the handler returns.
  grpc::ServerUnaryReactor* reactor() const { return reactor_; }

  // The SHA-256 of the caller's token: the writer the statement looks up.
  //
  // CRAFT: a copy of its own, not the pending call's, so that
  // `Upsert(value, call.token_hash(), call.Committed())` is right in
  // whichever order the arguments are evaluated.
  const std::string& token_hash() const { return token_hash_; }

  // Answers `invalid` (a bad request: INVALID_ARGUMENT naming the field)
  // once the token has been looked up, so an unknown token is
  // UNAUTHENTICATED instead. Returns reactor().
  grpc::ServerUnaryReactor* Refuse(absl::Status invalid);

  // The completion to hand the repository's write: it answers the call
  // with what the statement found (see the order above). The call is no
  // longer open.
  storage::DeveloperCallback Committed();

 private:
  // What travels from the handler to the answer.
  struct Pending;

  WriteCall(CallRunner& runner, grpc::ServerUnaryReactor* reactor,
            std::unique_ptr<Pending> pending);

  // Answers `pending`'s call with `status`.
  static void Answer(CallRunner& runner, std::unique_ptr<Pending> pending,
                     const absl::Status& status);
  // Answers `pending`'s call with what its write's statement found.
  static void Written(
      CallRunner& runner, std::unique_ptr<Pending> pending,
      const absl::StatusOr<std::optional<storage::DeveloperRecord>>& writer);

  CallRunner* runner_;
  grpc::ServerUnaryReactor* reactor_;
  std::string token_hash_;
  std::unique_ptr<Pending> pending_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_WRITE_CALL_H_
