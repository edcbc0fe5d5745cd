// Runs a service's reads on the database their RPC's option gives them
// (`read_from`, proto/mdc/v1/options.proto; service/calls/rpc_facts.h): a
// service holds its repositories twice, over the primary's pool and over
// the replica's, and a replica-routed RPC asks Read for the set to use.
// Without a replica, or for a primary-routed RPC, it is always the
// primary's.
//
// Thread-safe.
#ifndef MDC_SERVICE_REPLICA_ROUTED_READS_H_
#define MDC_SERVICE_REPLICA_ROUTED_READS_H_

#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "service/calls/rpc_facts.h"
#include "service/replica/replica_monitor.h"

namespace mdc {

// A service's repositories over the replica's pool, and the monitor that
// says when they may be used.
template <typename Stores>
struct ReplicaStores {
  Stores stores;
  ReplicaMonitor& monitor;
};

// Whether a failed read on the replica is the replica's failure, so that
// the primary should answer instead: the database is unreachable or timed
// out (UNAVAILABLE), or cancelled the query (ABORTED: a standby cancels
// queries that conflict with the WAL it replays). Anything else (NOT_FOUND,
// a bad request) the primary would answer the same.
inline bool IsReplicaFailure(const absl::Status& status) {
  return absl::IsUnavailable(status) || absl::IsAborted(status);
}

template <typename Stores>
class RoutedReads {
 public:
  RoutedReads(Stores primary, std::optional<ReplicaStores<Stores>> replica)
      : primary_(primary), replica_(replica) {}

  // The primary's repositories: for writes and primary-routed reads.
  const Stores& primary() const { return primary_; }

  // Runs `body` with the repositories a read of an RPC whose reads come
  // `from` (RpcFacts::reads_from) uses now. When the replica's fail
  // (IsReplicaFailure), runs it again with the primary's, so `body` must
  // set its answer from scratch.
  absl::Status Read(ReadsFrom from,
                    absl::FunctionRef<absl::Status(const Stores&)> body) const {
    if (!replica_.has_value() || from != ReadsFrom::kReplica ||
        !replica_->monitor.Route()) {
      return body(primary_);
    }
    absl::Status status = body(replica_->stores);
    if (!IsReplicaFailure(status)) return status;
    replica_->monitor.ReadFailed();
    return body(primary_);
  }

 private:
  const Stores primary_;
  const std::optional<ReplicaStores<Stores>> replica_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_REPLICA_ROUTED_READS_H_
