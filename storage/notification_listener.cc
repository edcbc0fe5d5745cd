#include "storage/notification_listener.h"

#include <poll.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "common/log.h"

namespace mdc::storage {

absl::StatusOr<std::unique_ptr<NotificationListener>>
NotificationListener::Open(const std::string& url, const std::string& channel) {
  // Keepalives: a listener only reads, so without them a database host that
  // vanished (rather than restarted) would leave it waiting forever.
  const char* keywords[] = {"dbname",
                            "connect_timeout",
                            "application_name",
                            "keepalives_idle",
                            "keepalives_interval",
                            "keepalives_count",
                            nullptr};
  const char* values[] = {url.c_str(), "5",    "mdc-server-listen", "10", "5",
                          "3",         nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (PQstatus(conn) != CONNECTION_OK) {
    log::Warning("listen connection failed", {{"error", PQerrorMessage(conn)}});
    PQfinish(conn);
    return absl::UnavailableError("database unavailable");
  }
  std::unique_ptr<NotificationListener> listener(
      new NotificationListener(conn));
  char* quoted = PQescapeIdentifier(conn, channel.data(), channel.size());
  if (quoted == nullptr) return absl::InternalError("bad channel name");
  const std::string sql = absl::StrCat("LISTEN ", quoted);
  PQfreemem(quoted);
  PGresult* result = PQexec(conn, sql.c_str());
  const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
  PQclear(result);
  if (!ok) {
    log::Warning("LISTEN failed", {{"error", PQerrorMessage(conn)}});
    return absl::UnavailableError("database unavailable");
  }
  return listener;
}

NotificationListener::~NotificationListener() { PQfinish(conn_); }

int NotificationListener::Drain() {
  int count = 0;
  while (PGnotify* notify = PQnotifies(conn_)) {
    ++count;
    PQfreemem(notify);
  }
  return count;
}

absl::StatusOr<int> NotificationListener::Wait(absl::Duration timeout) {
  int count = Drain();
  if (count > 0) return count;
  pollfd fd{PQsocket(conn_), POLLIN, 0};
  if (fd.fd < 0) return absl::UnavailableError("listen connection lost");
  const int ready = poll(&fd, 1, absl::ToInt64Milliseconds(timeout));
  if (ready < 0 && errno != EINTR) {
    return absl::UnavailableError("listen connection lost");
  }
  if (ready <= 0) return 0;
  if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK) {
    log::Warning("listen connection lost", {{"error", PQerrorMessage(conn_)}});
    return absl::UnavailableError("listen connection lost");
  }
  return Drain();
}

}  // namespace mdc::storage
