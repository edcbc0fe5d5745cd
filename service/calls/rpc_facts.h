// The facts about each RPC that the server acts on, read once from the
// (mdc.v1.rpc) method options of the generated descriptors
// (proto/mdc/v1/options.proto): who may call it, which rate limit it counts
// against, which database answers its reads. No table of RPCs is kept by
// hand: a handler passes its request, and its RPC is the method of its
// service that takes that request type.
//
// Thread-safe (immutable once built).
#ifndef MDC_SERVICE_CALLS_RPC_FACTS_H_
#define MDC_SERVICE_CALLS_RPC_FACTS_H_

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "service/auth/auth.h"

namespace mdc {

// Which per-developer rate limit (MDC_RATE_LIMIT_*) a call counts against.
enum class RateClass {
  kNone,    // not limited: public and admin routes
  kReads,   // MDC_RATE_LIMIT_READS
  kWrites,  // MDC_RATE_LIMIT_WRITES
};

// Which database answers an RPC's reads (docs/architecture.md, "Reads and
// the replica").
enum class ReadsFrom {
  kPrimary,
  kReplica,  // while it is up and within the bound, else the primary
};

// One RPC. The names view the descriptors of the generated pool, which live
// as long as the process.
struct RpcFacts {
  absl::string_view service;  // full name: "mdc.v1.DeveloperService"
  absl::string_view method;   // "GetQuote"
  Access access = Access::kDeveloper;
  RateClass rate = RateClass::kReads;
  ReadsFrom reads_from = ReadsFrom::kPrimary;
  // Passes the heavy-read gate (service/calls/heavy_read_gate.h).
  bool heavy_read = false;
};

// The RPCs of one service, by request type.
class ServiceRpcs {
 public:
  // Reads the service `service` (full name) of the generated pool.
  // INVALID_ARGUMENT naming the RPC when one lacks its option or a field of
  // it, or takes the request type of another RPC of the service (a handler
  // could not name its RPC by its request then); NOT_FOUND for an unknown
  // service.
  static absl::StatusOr<ServiceRpcs> Of(absl::string_view service);
  // Of, reading `pool` (tests build protos of their own).
  static absl::StatusOr<ServiceRpcs> Of(
      absl::string_view service, const google::protobuf::DescriptorPool& pool);

  // The RPC taking `request`; nullptr when there is none.
  const RpcFacts* Find(const google::protobuf::Descriptor* request) const;

  // Every RPC, in the order of the proto file.
  const std::vector<RpcFacts>& all() const { return all_; }

 private:
  std::vector<RpcFacts> all_;
  absl::flat_hash_map<const google::protobuf::Descriptor*, size_t> by_request_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_RPC_FACTS_H_
