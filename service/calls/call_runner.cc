#include "service/calls/call_runner.h"

#include <atomic>
#include <cstdint>

#include "absl/random/random.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/log.h"
#include "domain/ip_network.h"
#include "domain/sign_in.h"
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

absl::StatusOr<domain::BacktestClock> BacktestClockOf(
    const grpc::ServerContextBase& context) {
  return domain::BacktestClock::FromHeaders(
      Metadata(context, "x-current-timestamp"),
      Metadata(context, "x-current-timezone"));
}

// Codes that mean the server failed, not the caller: logged as errors.
bool IsServerFailure(absl::StatusCode code) {
  return code == absl::StatusCode::kInternal ||
         code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kDataLoss;
}

absl::Status Prepare(grpc::ServerContextBase& context, Authenticator& auth,
                     Access access, CallContext& call) {
  auto caller = auth.Authenticate(Metadata(context, "authorization"), access,
                                  call.client_address);
  if (!caller.ok()) return caller.status();
  call.caller = *std::move(caller);
  auto clock = BacktestClockOf(context);
  if (!clock.ok()) return clock.status();
  call.clock = *clock;
  return absl::OkStatus();
}

std::vector<domain::IpNetwork> Networks(const std::vector<std::string>& texts) {
  std::vector<domain::IpNetwork> networks;
  for (const std::string& text : texts) {
    if (auto network = domain::IpNetwork::Parse(text); network.has_value()) {
      networks.push_back(*std::move(network));
    }
  }
  return networks;
}

bool Trusted(const std::vector<domain::IpNetwork>& networks,
             const std::string& ip) {
  for (const domain::IpNetwork& network : networks) {
    if (network.Contains(ip)) return true;
  }
  return false;
}

uint64_t NextRunnerId() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1) + 1;
}

}  // namespace

absl::string_view CallRunner::Header(const grpc::ServerContextBase& context,
                                     absl::string_view key) {
  return Metadata(context, key);
}

absl::StatusOr<domain::BacktestClock> CallRunner::ClockOf(
    const grpc::ServerContextBase& context) {
  return BacktestClockOf(context);
}

CallRunner::CallRunner(Authenticator& auth, Metrics& metrics,
                       std::vector<std::string> trusted_proxies,
                       CallLimits limits)
    : auth_(auth),
      metrics_(metrics),
      trusted_proxies_(Networks(trusted_proxies)),
      id_(NextRunnerId()),
      reads_("reads", limits.reads),
      writes_("writes", limits.writes),
      heavy_reads_(limits.heavy_reads) {}

RateLimiter* CallRunner::LimiterOf(RateClass rate) {
  switch (rate) {
    case RateClass::kReads:
      return &reads_;
    case RateClass::kWrites:
      return &writes_;
    case RateClass::kNone:
      break;
  }
  return nullptr;
}

absl::Status CallRunner::Limit(const grpc::ServerContextBase& context,
                               const RpcFacts& rpc) {
  RateLimiter* limiter = LimiterOf(rpc.rate);
  if (limiter == nullptr || !limiter->enabled()) return absl::OkStatus();
  // Keyed by the token's hash: known without the database, and one token is
  // one developer. An unknown token gets a bucket too, until it is idle.
  auto token_hash = auth_.TokenHash(Metadata(context, "authorization"));
  if (!token_hash.ok()) return absl::OkStatus();
  return limiter->Admit(*token_hash);
}

bool CallRunner::TrustedPeer(const std::string& peer) const {
  // A server's calls come over a few connections (one per gateway), so each
  // thread remembers its last answer instead of parsing the peer again.
  thread_local uint64_t last_runner = 0;  // ids start at 1
  thread_local std::string last_peer;
  thread_local bool last_trusted = false;
  if (last_runner == id_ && last_peer == peer) return last_trusted;
  const std::optional<std::string> peer_ip =
      domain::CanonicalIp(domain::ClientKey(peer));
  last_trusted = peer_ip.has_value() && Trusted(trusted_proxies_, *peer_ip);
  last_runner = id_;
  last_peer = peer;
  return last_trusted;
}

std::string CallRunner::ClientAddress(
    const grpc::ServerContextBase& context) const {
  const std::string peer = context.peer();
  if (!TrustedPeer(peer)) {
    // Not a proxy we trust: whatever x-forwarded-for it sent is its own
    // claim, and believing it would let a caller dodge per-address limits.
    return peer;
  }
  // A trusted proxy (the gateway) appends the address it saw to whatever
  // X-Forwarded-For the client sent: only the last entry can be trusted.
  absl::string_view forwarded = Metadata(context, "x-forwarded-for");
  if (!forwarded.empty()) {
    const size_t comma = forwarded.rfind(',');
    return std::string(absl::StripAsciiWhitespace(
        comma == absl::string_view::npos ? forwarded
                                         : forwarded.substr(comma + 1)));
  }
  return peer;
}

CallContext CallRunner::Describe(const grpc::ServerContextBase& context) const {
  CallContext call;
  call.request_id = RequestIdOf(Metadata(context, "x-request-id"));
  call.run_id = std::string(Metadata(context, "x-run-id").substr(0, 128));
  call.client_address = ClientAddress(context);
  return call;
}

std::string RequestIdOf(absl::string_view sent) {
  bool valid = !sent.empty() && sent.size() <= 128;
  for (char c : sent) {
    if (c < 0x21 || c > 0x7e) valid = false;  // printable, no space
  }
  if (valid) return std::string(sent);
  // An id names a call in the logs; it need not be secret, only unlikely
  // to repeat: 128 bits from a per-thread generator (seeded from the OS)
  // cost a fraction of RAND_bytes.
  thread_local absl::BitGen bits;
  const uint64_t random[2] = {absl::Uniform<uint64_t>(bits),
                              absl::Uniform<uint64_t>(bits)};
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(random), sizeof random));
}

grpc::Status CallRunner::Run(
    grpc::ServerContextBase* context, const RpcFacts& rpc,
    absl::FunctionRef<absl::Status(const CallContext&)> body) {
  const absl::Time start = absl::Now();
  CallContext call = Describe(*context);
  absl::Status status = Limit(*context, rpc);
  if (status.ok()) status = Prepare(*context, auth_, rpc.access, call);
  if (status.ok() && rpc.heavy_read) {
    // After authentication: the turn is counted against the developer, and
    // a call refused here has read nothing. The pass is held until the
    // body has answered.
    auto pass = heavy_reads_.Enter(absl::StrCat(call.caller.developer_id),
                                   absl::FromChrono(context->deadline()));
    status = pass.ok() ? body(call) : pass.status();
  } else if (status.ok()) {
    status = body(call);
  }
  return Finish(rpc, start, call, status);
}

grpc::Status CallRunner::Finish(const RpcFacts& rpc, absl::Time start,
                                const CallContext& call,
                                const absl::Status& status) {
  const double latency_ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  metrics_.RecordCall(rpc.service, rpc.method, status.code(),
                      latency_ms / 1000.0);
  const bool failed = IsServerFailure(status.code());
  if (failed || log::AccessLogEnabled()) {
    const std::string code = absl::StatusCodeToString(status.code());
    const log::Fields fields = {{"request_id", call.request_id},
                                {"method", rpc.method},
                                {"service", rpc.service},
                                {"code", code},
                                {"latency_ms", latency_ms},
                                {"developer", call.caller.developer_id},
                                {"run_id", call.run_id},
                                {"client", call.client_address}};
    if (failed) {
      log::Error("request", fields);
    } else {
      log::Info("request", fields);
    }
  }
  return ToGrpcStatus(status);
}

}  // namespace mdc
