#include "storage/pg_notices.h"

#include "absl/strings/string_view.h"
#include "common/log.h"

namespace mdc::storage {

namespace {

// Replaces libpq's default notice processor, which prints NOTICEs (e.g.
// "relation ... already exists, skipping" during migrations) raw on stderr:
// they become structured lines, at debug level (a WARNING at warn).
void LogNotice(void* arg, const PGresult* notice) {
  const auto field = [notice](int code) -> absl::string_view {
    const char* value = PQresultErrorField(notice, code);
    return value == nullptr ? absl::string_view() : absl::string_view(value);
  };
  const absl::string_view severity = field(PG_DIAG_SEVERITY_NONLOCALIZED);
  // Matched by SQLSTATE, not by message: messages follow the server's
  // lc_messages.
  if (arg != nullptr && severity == "WARNING" &&
      field(PG_DIAG_SQLSTATE) == kPlainWarningSqlState) {
    *static_cast<bool*>(arg) = true;
  }
  const log::Level level =
      severity == "WARNING" ? log::Level::kWarn : log::Level::kDebug;
  if (!log::Enabled(level)) return;
  const log::Fields fields = {{"severity", severity},
                              {"sqlstate", field(PG_DIAG_SQLSTATE)},
                              {"notice", field(PG_DIAG_MESSAGE_PRIMARY)}};
  if (level == log::Level::kWarn) {
    log::Warning("database notice", fields);
  } else {
    log::Debug("database notice", fields);
  }
}

}  // namespace

void InstallNoticeLogger(PGconn* conn, bool* sync_wait_cancelled) {
  PQsetNoticeReceiver(conn, &LogNotice, sync_wait_cancelled);
}

}  // namespace mdc::storage
