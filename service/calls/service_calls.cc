#include "service/calls/service_calls.h"

#include <cstdlib>

#include "common/log.h"

namespace mdc {
namespace {

ServiceRpcs RpcsOrDie(absl::string_view service) {
  auto rpcs = ServiceRpcs::Of(service);
  if (!rpcs.ok()) {
    log::Error("the options of an RPC are broken (proto/mdc/v1)",
               {{"service", service}, {"error", rpcs.status().message()}});
    std::abort();
  }
  return *std::move(rpcs);
}

}  // namespace

ServiceCalls::ServiceCalls(CallRunner& runner, absl::string_view service)
    : runner_(runner), rpcs_(RpcsOrDie(service)) {}

const RpcFacts& ServiceCalls::Of(
    const google::protobuf::Message& request) const {
  const RpcFacts* rpc = rpcs_.Find(request.GetDescriptor());
  if (rpc == nullptr) {
    log::Error("a handler passed a request its service takes in no RPC",
               {{"request", request.GetDescriptor()->full_name()}});
    std::abort();
  }
  return *rpc;
}

}  // namespace mdc
