#include "service/calls/write_call.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "service/calls/call_runner.h"

namespace mdc {
namespace {

absl::string_view AccessName(Access access) {
  switch (access) {
    case Access::kPublic:
      return "public";
    case Access::kDeveloper:
      return "developer";
    case Access::kAdmin:
      return "admin";
  }
  return "unknown";
}

// Why an RPC whose access fact is not `developer` cannot be written here.
absl::Status NotADeveloperWrite(const RpcFacts& rpc) {
  return absl::PermissionDeniedError(absl::StrCat(
      rpc.service, "/", rpc.method, " is declared for ", AccessName(rpc.access),
      " access, but the write path serves developer RPCs only: it "
      "authenticates the writer in the statement that writes, so it cannot "
      "check any other access before writing"));
}

}  // namespace

struct WriteCall::Pending {
  const RpcFacts& rpc;
  absl::Time start;
  CallContext call;
  grpc::ServerUnaryReactor* reactor;
  std::string token_hash;
};

WriteCall::WriteCall(CallRunner& runner, grpc::ServerUnaryReactor* reactor,
                     std::unique_ptr<Pending> pending)
    : runner_(&runner), reactor_(reactor), pending_(std::move(pending)) {}

WriteCall::~WriteCall() {
  if (open()) {
    Answer(*runner_, std::move(pending_),
           absl::InternalError("the write's handler neither wrote nor "
                               "refused it"));
  }
}

WriteCall WriteCall::Start(CallRunner& runner,
                           grpc::CallbackServerContext* context,
                           grpc::ServerUnaryReactor* reactor,
                           const RpcFacts& rpc) {
  WriteCall call(
      runner, reactor,
      std::make_unique<Pending>(
          Pending{rpc, absl::Now(), runner.Describe(*context), reactor, {}}));
  auto refuse = [&](const absl::Status& status) {
    Answer(runner, std::move(call.pending_), status);
    return std::move(call);
  };
  // CRAFT: the access fact is checked first, before the header, because it
  // is a fact of the RPC, not of the call: no token could make such a call
  // right. Reads check it in Authenticator::Authenticate, before their body
  // reads anything; a write cannot, since its body is the statement that
  // authenticates, so only `developer` (any holder of a token) is served.
  if (rpc.access != Access::kDeveloper) return refuse(NotADeveloperWrite(rpc));
  auto token_hash =
      runner.auth_.TokenHash(CallRunner::Header(*context, "authorization"));
  if (!token_hash.ok()) return refuse(token_hash.status());
  call.token_hash_ = *token_hash;
  call.pending_->token_hash = *std::move(token_hash);
  const std::string& client = call.pending_->call.client_address;
  if (auto admitted = runner.auth_.Throttle(client, call.token_hash_);
      !admitted.ok()) {
    return refuse(admitted);
  }
  if (RateLimiter* limiter = runner.LimiterOf(rpc.rate);
      limiter != nullptr && limiter->enabled()) {
    if (auto admitted = limiter->Admit(call.token_hash_); !admitted.ok()) {
      return refuse(admitted);
    }
  }
  auto clock = CallRunner::ClockOf(*context);
  if (!clock.ok()) {
    call.Refuse(clock.status());
    return call;
  }
  call.pending_->call.clock = *clock;
  return call;
}

grpc::ServerUnaryReactor* WriteCall::Refuse(absl::Status invalid) {
  // Nothing to write, so the token is looked up on its own.
  const std::string client = pending_->call.client_address;
  runner_->auth_.IdentifyAsync(
      token_hash_, client,
      [runner = runner_, pending = std::move(pending_),
       invalid = std::move(invalid)](absl::StatusOr<Caller> caller) mutable {
        if (!caller.ok()) {
          return Answer(*runner, std::move(pending), caller.status());
        }
        pending->call.caller = *std::move(caller);
        Answer(*runner, std::move(pending), invalid);
      });
  return reactor_;
}

storage::DeveloperCallback WriteCall::Committed() {
  return
      [runner = runner_, pending = std::move(pending_)](
          absl::StatusOr<std::optional<storage::DeveloperRecord>>
              writer) mutable { Written(*runner, std::move(pending), writer); };
}

void WriteCall::Written(
    CallRunner& runner, std::unique_ptr<Pending> pending,
    const absl::StatusOr<std::optional<storage::DeveloperRecord>>& writer) {
  if (!writer.ok()) return Answer(runner, std::move(pending), writer.status());
  // No writer: nothing was written, and Admit answers UNAUTHENTICATED (and
  // counts the failure against the client). Its role check cannot fail
  // after a write: the database only holds valid roles.
  auto caller = runner.auth_.Admit(*writer, pending->token_hash,
                                   pending->call.client_address);
  if (!caller.ok()) return Answer(runner, std::move(pending), caller.status());
  pending->call.caller = *std::move(caller);
  Answer(runner, std::move(pending), absl::OkStatus());
}

void WriteCall::Answer(CallRunner& runner, std::unique_ptr<Pending> pending,
                       const absl::Status& status) {
  pending->reactor->Finish(
      runner.Finish(pending->rpc, pending->start, pending->call, status));
}

}  // namespace mdc
