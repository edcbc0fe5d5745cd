// Routes the NOTICEs (and WARNINGs) a PostgreSQL connection receives to the
// structured log instead of libpq's raw lines on stderr (e.g. "relation ...
// already exists, skipping" during migrations).
//
// Thread-safe: the receiver keeps no state.
#ifndef MDC_STORAGE_PG_NOTICES_H_
#define MDC_STORAGE_PG_NOTICES_H_

#include <libpq-fe.h>

namespace mdc::storage {

// Installs on `conn` a notice receiver that logs "database notice" at debug
// level (warn for a WARNING), with severity, sqlstate and message.
// Connection installs it on every connection it opens.
void InstallNoticeLogger(PGconn* conn);

}  // namespace mdc::storage

#endif  // MDC_STORAGE_PG_NOTICES_H_
