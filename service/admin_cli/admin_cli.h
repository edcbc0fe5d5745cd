// The server binary's admin command line, for first set-up and recovery
// without a running server or an existing admin, and for deployments:
//
//   mdc-server create-developer --username NAME [--role developer|admin]
//   mdc-server refresh-key --username NAME
//   mdc-server migrate
//   mdc-server compact --through YYYY-MM-DD
//   mdc-server import --kind equity_list|symbol_changes|corporate_actions
//                     --file PATH
//
// All take --database-url (else DATABASE_URL) and bring the schema up to
// date. The first two print the new token alone on stdout (it is shown only
// then). `migrate` does nothing else: a deployment runs it once per release
// (the Helm chart's hook Job) before new servers start; it waits for the
// database up to --db-wait-seconds (else MDC_DB_WAIT_SECONDS, default 60).
// What happened goes to stderr.
#ifndef MDC_SERVICE_ADMIN_CLI_ADMIN_CLI_H_
#define MDC_SERVICE_ADMIN_CLI_ADMIN_CLI_H_

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mdc {

// Whether `command` (argv[1]) names an admin command.
bool IsAdminCommand(absl::string_view command);

// The admin commands' part of --help.
const char* AdminCommandUsage();

// Runs the admin command `args[0]` with its flags `args[1..]`. Returns the
// process exit code: 0 done, 1 failed (e.g. the username is taken, the
// database unreachable, a migration failed), 2 bad usage.
int RunAdminCommand(const std::vector<std::string>& args,
                    const std::function<const char*(const char*)>& getenv,
                    std::FILE* out, std::FILE* err);

}  // namespace mdc

#endif  // MDC_SERVICE_ADMIN_CLI_ADMIN_CLI_H_
