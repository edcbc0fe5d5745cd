// The server binary's admin command line, for first set-up and recovery
// without a running server or an existing admin:
//
//   mdc-server create-developer --username NAME [--role developer|admin]
//   mdc-server refresh-key --username NAME
//
// Both take --database-url (else DATABASE_URL), bring the schema up to
// date, and print the new token alone on stdout (it is shown only then);
// what happened goes to stderr.
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
const char *AdminCommandUsage();

// Runs the admin command `args[0]` with its flags `args[1..]`. Returns the
// process exit code: 0 done, 1 failed (e.g. the username is taken), 2 bad
// usage.
int RunAdminCommand(const std::vector<std::string> &args,
                    const std::function<const char *(const char *)> &getenv,
                    std::FILE *out, std::FILE *err);

}  // namespace mdc

#endif  // MDC_SERVICE_ADMIN_CLI_ADMIN_CLI_H_
