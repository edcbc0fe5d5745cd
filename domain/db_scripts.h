// The fixed list of maintenance scripts an admin may run through
// POST /v1/admin/db-scripts, and the validation of a request to run one.
// There is no way to run SQL a client wrote: a request only picks a script
// by name and gives typed arguments.
#ifndef MDC_DOMAIN_DB_SCRIPTS_H_
#define MDC_DOMAIN_DB_SCRIPTS_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/civil_time.h"

namespace mdc::domain {

enum class DbScript {
  kAnalyze,      // ANALYZE every mdc table (refresh planner statistics)
  kVacuum,       // VACUUM (ANALYZE) every mdc table
  kPurgeBefore,  // delete market data of trading days before args.before
  kDedupeCheck,  // report natural keys stored more than once (read-only)
};

// A validated request.
struct DbScriptPlan {
  DbScript script = DbScript::kAnalyze;
  std::string name;  // as the API spells it, e.g. "purge-before"
  bool dry_run = false;
  absl::CivilDay before;  // kPurgeBefore only
};

// The script names, in the order documented: "analyze, vacuum,
// purge-before, dedupe-check".
std::string DbScriptNames();

// The most `args` a RunDbScript request may carry (a script takes at most
// one today).
inline constexpr int kMaxDbScriptArgs = 16;

// OK, or INVALID_ARGUMENT naming `args` when there are more than
// kMaxDbScriptArgs: checked before any argument is looked at.
absl::Status CheckDbScriptArgCount(size_t count);

// Checks `script` (field "script") and `args` (fields "args.<name>"):
// unknown scripts and unknown or missing arguments are INVALID_ARGUMENT
// with a google.rpc.BadRequest naming each field and what is valid.
absl::StatusOr<DbScriptPlan> PlanDbScript(
    absl::string_view script, bool dry_run,
    const std::map<std::string, std::string>& args);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_DB_SCRIPTS_H_
