// THE RULE of which database an RPC reads from when a read replica is
// configured (DATABASE_READ_URL): one row per RPC of every mdc.v1 service,
// decided here and nowhere else (docs/architecture.md, "Reads and the
// replica"). A test fails when an RPC is missing from the table.
//
// kReplica: reads that may lag behind the primary by the bound
// (MDC_REPLICA_MAX_LAG): market data as of an instant, timelines, candles,
// analytics, the holiday calendar as developers read it. Nobody reading
// them has just written what they read in the same session; collectors
// write, and developers read what the collectors wrote seconds to days ago.
//
// kPrimary: every write; every read that must see the caller's own last
// write or that feeds a write (sign-in and its attempt counter, token
// checks, the dashboard's runs and orders, the broker token, every admin
// call, collector calls); stream catch-up and replay, whose commit-ordered
// cursors must continue from what the notification just announced; health.
#ifndef MDC_SERVICE_REPLICA_READ_ROUTING_H_
#define MDC_SERVICE_REPLICA_READ_ROUTING_H_

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace mdc {

enum class ReadsFrom {
  kPrimary,
  kReplica,  // while it is up and within the bound, else the primary
};

// Where `method` of `service` (full name, e.g. "mdc.v1.DeveloperService")
// reads from; nothing for an RPC the table does not know.
std::optional<ReadsFrom> ReadsFromOf(absl::string_view service,
                                     absl::string_view method);

// Every row of the table: ("mdc.v1.DeveloperService", "GetQuote") and its
// answer, for tests and docs.
struct ReadRoute {
  absl::string_view service;
  absl::string_view method;
  ReadsFrom reads_from;
};
const std::vector<ReadRoute>& ReadRoutes();

}  // namespace mdc

#endif  // MDC_SERVICE_REPLICA_READ_ROUTING_H_
