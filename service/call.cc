#include "service/call.h"

#include "absl/strings/ascii.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "service/grpc_status.h"

namespace mdc {
namespace {

absl::string_view Metadata(const grpc::ServerContext& context,
                           absl::string_view key) {
  const auto& metadata = context.client_metadata();
  auto it = metadata.find(grpc::string_ref(key.data(), key.size()));
  if (it == metadata.end()) return {};
  return absl::string_view(it->second.data(), it->second.size());
}

std::string ClientAddress(const grpc::ServerContext& context) {
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

absl::Status Prepare(grpc::ServerContext& context, Authenticator& auth,
                     Access access, CallContext& call) {
  call.run_id = std::string(Metadata(context, "x-run-id").substr(0, 128));
  call.client_address = ClientAddress(context);
  auto caller = auth.Authenticate(Metadata(context, "authorization"), access);
  if (!caller.ok()) return caller.status();
  call.caller = *std::move(caller);
  auto clock = domain::BacktestClock::FromHeaders(
      Metadata(context, "x-current-timestamp"),
      Metadata(context, "x-current-timezone"));
  if (!clock.ok()) return clock.status();
  call.clock = *clock;
  return absl::OkStatus();
}

}  // namespace

grpc::Status CallRunner::Run(
    grpc::ServerContext* context, absl::string_view method, Access access,
    absl::FunctionRef<absl::Status(const CallContext&)> body) {
  const absl::Time start = absl::Now();
  CallContext call;
  absl::Status status = Prepare(*context, auth_, access, call);
  if (status.ok()) status = body(call);
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
