// Routes the NOTICEs (and WARNINGs) a PostgreSQL connection receives to the
// structured log instead of libpq's raw lines on stderr (e.g. "relation ...
// already exists, skipping" during migrations).
//
// Thread-safe: the receiver keeps no state of its own; the flag it sets
// belongs to the one Connection (one thread) it is installed on.
#ifndef MDC_STORAGE_PG_NOTICES_H_
#define MDC_STORAGE_PG_NOTICES_H_

#include <libpq-fe.h>

namespace mdc::storage {

// Installs on `conn` a notice receiver that logs "database notice" at debug
// level (warn for a WARNING), with severity, sqlstate and message.
// Connection installs it on every connection it opens.
// When `sync_wait_cancelled` is given, the receiver sets it on a WARNING of
// SQLSTATE 01000 (plain "warning"): the one mdc's statements can receive is
// PostgreSQL's "canceling wait for synchronous replication", sent when a
// commit was made on the primary but the wait for the synchronous standby's
// confirmation was cancelled (pg_cancel_backend; statement_timeout does not
// apply to that wait). The
// commit then reports success although its second copy is unconfirmed.
void InstallNoticeLogger(PGconn* conn, bool* sync_wait_cancelled = nullptr);

// SQLSTATE 01000, the class of a WARNING raised without a specific code.
inline constexpr char kPlainWarningSqlState[] = "01000";

}  // namespace mdc::storage

#endif  // MDC_STORAGE_PG_NOTICES_H_
