// Runs a service's reads on the database THE RULE gives them
// (read_routing.h): a service holds its repositories twice, over the
// primary's pool and over the replica's, and a replica-routed RPC asks
// Read for the set to use. Without a replica, or for a primary-routed RPC,
// it is always the primary's.
//
// Thread-safe.
#ifndef MDC_SERVICE_REPLICA_ROUTED_READS_H_
#define MDC_SERVICE_REPLICA_ROUTED_READS_H_

#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "service/replica/read_routing.h"
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
  // `service` is a string constant: the generated service_full_name().
  RoutedReads(absl::string_view service, Stores primary,
              std::optional<ReplicaStores<Stores>> replica)
      : service_(service), primary_(primary), replica_(replica) {}

  // The primary's repositories: for writes and primary-routed reads.
  const Stores& primary() const { return primary_; }

  // A CallRunner body for the RPC `method` (a string constant) that runs
  // `body(stores, call)` through Read, clearing `response` first on every
  // run. For
  //   calls_.Run(context, "GetQuote", Access::kDeveloper,
  //              reads_.Routed("GetQuote", response,
  //                            [&](const Stores& stores,
  //                                const CallContext& call) { ... }));
  template <typename Response, typename Body>
  auto Routed(absl::string_view method, Response* response, Body body) const {
    return [this, method, response, body](const auto& call) -> absl::Status {
      return Read(method, [&](const Stores& stores) -> absl::Status {
        response->Clear();
        return body(stores, call);
      });
    };
  }

  // Runs `body` with the repositories `method` (a string constant) reads
  // from now. When the replica's fail (IsReplicaFailure), runs it again
  // with the primary's, so `body` must set its answer from scratch.
  absl::Status Read(absl::string_view method,
                    absl::FunctionRef<absl::Status(const Stores&)> body) const {
    if (!replica_.has_value() ||
        ReadsFromOf(service_, method) != ReadsFrom::kReplica ||
        !replica_->monitor.Route()) {
      return body(primary_);
    }
    absl::Status status = body(replica_->stores);
    if (!IsReplicaFailure(status)) return status;
    replica_->monitor.ReadFailed();
    return body(primary_);
  }

 private:
  const absl::string_view service_;
  const Stores primary_;
  const std::optional<ReplicaStores<Stores>> replica_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_REPLICA_ROUTED_READS_H_
