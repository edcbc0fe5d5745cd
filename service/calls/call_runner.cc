#include "service/calls/call_runner.h"

#include "absl/strings/ascii.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "service/calls/grpc_status.h"

namespace mdc {
namespace {

absl::string_view Metadata(const grpc::ServerContextBase& context,
                           absl::string_view key) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find(grpc::string_ref(key.data(), key.size()));
  if (it == metadata.end()) return {};
  return absl::string_view(it->second.data(), it->second.size());
}

std::string ClientAddress(const grpc::ServerContextBase& context) {
  // The gateway appends the address it saw to whatever X-Forwarded-For the
  // client sent: only the last entry can be trusted (earlier ones are
  // client-controlled and would let a caller dodge per-address limits).
  absl::string_view forwarded = Metadata(context, "x-forwarded-for");
  if (!forwarded.empty()) {
    const size_t comma = forwarded.rfind(',');
    return std::string(absl::StripAsciiWhitespace(
        comma == absl::string_view::npos ? forwarded
                                         : forwarded.substr(comma + 1)));
  }
  return context.peer();
}

absl::StatusOr<domain::BacktestClock> ClockOf(
    const grpc::ServerContextBase& context) {
  return domain::BacktestClock::FromHeaders(
      Metadata(context, "x-current-timestamp"),
      Metadata(context, "x-current-timezone"));
}

CallContext Describe(const grpc::ServerContextBase& context) {
  CallContext call;
  call.run_id = std::string(Metadata(context, "x-run-id").substr(0, 128));
  call.client_address = ClientAddress(context);
  return call;
}

absl::Status Prepare(grpc::ServerContext& context, Authenticator& auth,
                     Access access, CallContext& call) {
  auto caller = auth.Authenticate(Metadata(context, "authorization"), access);
  if (!caller.ok()) return caller.status();
  call.caller = *std::move(caller);
  auto clock = ClockOf(context);
  if (!clock.ok()) return clock.status();
  call.clock = *clock;
  return absl::OkStatus();
}

}  // namespace

grpc::Status CallRunner::Run(
    grpc::ServerContext* context, absl::string_view method, Access access,
    absl::FunctionRef<absl::Status(const CallContext&)> body) {
  const absl::Time start = absl::Now();
  CallContext call = Describe(*context);
  absl::Status status = Prepare(*context, auth_, access, call);
  if (status.ok()) status = body(call);
  return Finish(method, start, call, status);
}

// What a StartWrite call carries from its handler to its answer.
struct CallRunner::PendingWrite {
  absl::string_view method;
  absl::Time start;
  CallContext call;
  grpc::ServerUnaryReactor* reactor;
  std::string token_hash;
};

// The steps keep Run's order of answers: a bad header (401) before bad
// X-Current-* headers before a bad body (400), and an unknown token 401
// whatever else is wrong.
void CallRunner::StartWrite(
    grpc::CallbackServerContext* context, grpc::ServerUnaryReactor* reactor,
    absl::string_view method,
    absl::FunctionRef<absl::StatusOr<Write>()> validate) {
  auto pending = std::make_unique<PendingWrite>(
      PendingWrite{method, absl::Now(), Describe(*context), reactor, {}});
  auto token_hash = auth_.TokenHash(Metadata(*context, "authorization"));
  if (!token_hash.ok()) return Answer(std::move(pending), token_hash.status());
  pending->token_hash = *std::move(token_hash);
  auto clock = ClockOf(*context);
  absl::StatusOr<Write> write = clock.ok() ? validate() : clock.status();
  if (!write.ok()) {
    // Nothing to write, so the token is looked up on its own.
    const std::string hash = pending->token_hash;
    auth_.IdentifyAsync(
        hash, [this, pending = std::move(pending), invalid = write.status()](
                  absl::StatusOr<Caller> caller) mutable {
          if (!caller.ok()) return Answer(std::move(pending), caller.status());
          pending->call.caller = *std::move(caller);
          Answer(std::move(pending), invalid);
        });
    return;
  }
  pending->call.clock = *clock;
  const std::string hash = pending->token_hash;
  std::move (*write)(
      hash, [this, pending = std::move(pending)](
                absl::StatusOr<std::optional<storage::DeveloperRecord>>
                    writer) mutable { Written(std::move(pending), writer); });
}

void CallRunner::Written(
    std::unique_ptr<PendingWrite> write,
    const absl::StatusOr<std::optional<storage::DeveloperRecord>>& writer) {
  if (!writer.ok()) return Answer(std::move(write), writer.status());
  // No writer: nothing was written. (Admit's role check cannot fail after a
  // write: the database only holds valid roles.)
  auto caller = auth_.Admit(*writer, write->token_hash);
  if (!caller.ok()) return Answer(std::move(write), caller.status());
  write->call.caller = *std::move(caller);
  Answer(std::move(write), absl::OkStatus());
}

void CallRunner::Answer(std::unique_ptr<PendingWrite> write,
                        const absl::Status& status) {
  write->reactor->Finish(
      Finish(write->method, write->start, write->call, status));
}

grpc::Status CallRunner::Finish(absl::string_view method, absl::Time start,
                                const CallContext& call,
                                const absl::Status& status) {
  const double latency_ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  metrics_.RecordCall(method, status.code(), latency_ms / 1000.0);
  log::Info("request", {{"method", method},
                        {"code", absl::StatusCodeToString(status.code())},
                        {"developer", call.caller.developer_id},
                        {"latency_ms", latency_ms},
                        {"run_id", call.run_id},
                        {"client", call.client_address}});
  return ToGrpcStatus(status);
}

}  // namespace mdc
