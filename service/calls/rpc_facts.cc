#include "service/calls/rpc_facts.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "mdc/v1/options.pb.h"

namespace mdc {
namespace {

using google::protobuf::DescriptorPool;
using google::protobuf::MethodDescriptor;

absl::StatusOr<RpcFacts> FactsOfMethod(const MethodDescriptor& method) {
  const std::string name = method.full_name();
  if (!method.options().HasExtension(v1::rpc)) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " has no (mdc.v1.rpc) option (proto/mdc/v1/options.proto)"));
  }
  const v1::RpcPolicy& policy = method.options().GetExtension(v1::rpc);
  RpcFacts facts;
  facts.service = method.service()->full_name();
  facts.method = method.name();
  switch (policy.access()) {
    case v1::ACCESS_PUBLIC:
      facts.access = Access::kPublic;
      break;
    case v1::ACCESS_DEVELOPER:
      facts.access = Access::kDeveloper;
      break;
    case v1::ACCESS_ADMIN:
      facts.access = Access::kAdmin;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": (mdc.v1.rpc).access is not set"));
  }
  switch (policy.rate_limit()) {
    case v1::RATE_LIMIT_NONE:
      facts.rate = RateClass::kNone;
      break;
    case v1::RATE_LIMIT_READS:
      facts.rate = RateClass::kReads;
      break;
    case v1::RATE_LIMIT_WRITES:
      facts.rate = RateClass::kWrites;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": (mdc.v1.rpc).rate_limit is not set"));
  }
  switch (policy.read_from()) {
    case v1::READ_FROM_PRIMARY:
      facts.reads_from = ReadsFrom::kPrimary;
      break;
    case v1::READ_FROM_REPLICA:
      facts.reads_from = ReadsFrom::kReplica;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(name, ": (mdc.v1.rpc).read_from is not set"));
  }
  facts.heavy_read = policy.heavy_read();
  if (facts.heavy_read && facts.rate != RateClass::kReads) {
    // The gate counts turns per developer: only a developer's reads
    // qualify, never a write or an admin or public route.
    return absl::InvalidArgumentError(
        absl::StrCat(name,
                     ": (mdc.v1.rpc).heavy_read is for reads (rate_limit: "
                     "RATE_LIMIT_READS)"));
  }
  if (policy.backtest_clock() == v1::BACKTEST_CLOCK_UNSPECIFIED) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": (mdc.v1.rpc).backtest_clock is not set"));
  }
  if (policy.retry().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, ": (mdc.v1.rpc).retry does not say why it is (not) retried"));
  }
  return facts;
}

}  // namespace

absl::StatusOr<ServiceRpcs> ServiceRpcs::Of(absl::string_view service) {
  return Of(service, *DescriptorPool::generated_pool());
}

absl::StatusOr<ServiceRpcs> ServiceRpcs::Of(absl::string_view service,
                                            const DescriptorPool& pool) {
  const google::protobuf::ServiceDescriptor* descriptor =
      pool.FindServiceByName(std::string(service));
  if (descriptor == nullptr) {
    return absl::NotFoundError(absl::StrCat("no service ", service));
  }
  ServiceRpcs rpcs;
  for (int m = 0; m < descriptor->method_count(); ++m) {
    const MethodDescriptor& method = *descriptor->method(m);
    auto facts = FactsOfMethod(method);
    if (!facts.ok()) return facts.status();
    if (!rpcs.by_request_.emplace(method.input_type(), rpcs.all_.size())
             .second) {
      return absl::InvalidArgumentError(absl::StrCat(
          method.full_name(), " takes ", method.input_type()->full_name(),
          " as another RPC of its service does: give it a request type of "
          "its own"));
    }
    rpcs.all_.push_back(*facts);
  }
  return rpcs;
}

const RpcFacts* ServiceRpcs::Find(
    const google::protobuf::Descriptor* request) const {
  auto it = by_request_.find(request);
  return it == by_request_.end() ? nullptr : &all_[it->second];
}

}  // namespace mdc
