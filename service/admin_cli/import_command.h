// `mdc-server import --kind equity_list|symbol_changes|corporate_actions
// --file PATH`: the admin import routes' work without a running server
// (docs/api.md section 13.2), for scripted loads of NSE's files.
#ifndef MDC_SERVICE_ADMIN_CLI_IMPORT_COMMAND_H_
#define MDC_SERVICE_ADMIN_CLI_IMPORT_COMMAND_H_

#include <cstdio>
#include <string>

namespace mdc {

// Imports the file at `path` as `kind` into the database at `url` (applying
// pending migrations first). Prints `imported N unchanged M rejected K
// ignored L` on `out` and each rejected or ignored row as `line L: reason`
// on `err`. Returns 0 done (rows may have been rejected), 1 failed (the
// file unreadable or not of that kind, the database), 2 bad usage.
int RunImportCommand(const std::string& kind, const std::string& path,
                     const std::string& url, std::FILE* out, std::FILE* err);

}  // namespace mdc

#endif  // MDC_SERVICE_ADMIN_CLI_IMPORT_COMMAND_H_
