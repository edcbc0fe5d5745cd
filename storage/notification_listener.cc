#include "storage/notification_listener.h"

#include <poll.h>

#include <cerrno>
#include <cstdint>

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
                            "options",
                            nullptr};
  const char* values[] = {
      url.c_str(), "5", "mdc-server-listen",         "10",
      "5",         "3", "-c synchronous_commit=off", nullptr};
  PGconn* conn = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
  if (PQstatus(conn) != CONNECTION_OK) {
    log::Warning("listen connection failed", {{"error", PQerrorMessage(conn)}});
    PQfinish(conn);
    return absl::UnavailableError("database unavailable");
  }
  char* quoted = PQescapeIdentifier(conn, channel.data(), channel.size());
  if (quoted == nullptr) {
    PQfinish(conn);
    return absl::InternalError("bad channel name");
  }
  const std::string sql = absl::StrCat("LISTEN ", quoted);
  std::unique_ptr<NotificationListener> listener(
      new NotificationListener(conn, absl::StrCat("NOTIFY ", quoted)));
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
  // Its own NOTIFYs come back to it too; they announce nothing new.
  const int own_pid = PQbackendPID(conn_);
  int count = 0;
  while (PGnotify* notify = PQnotifies(conn_)) {
    if (notify->be_pid != own_pid) ++count;
    PQfreemem(notify);
  }
  return count;
}

absl::StatusOr<int> NotificationListener::Wait(absl::Duration timeout,
                                               int wake_fd) {
  int count = Drain();
  if (count > 0) return count;
  pollfd fds[2] = {{PQsocket(conn_), POLLIN, 0}, {wake_fd, POLLIN, 0}};
  if (fds[0].fd < 0) return absl::UnavailableError("listen connection lost");
  // poll() counts whole milliseconds: rounded down, a wait of less than one
  // would return at once, and a caller waiting for a moment to pass would
  // spin until it has.
  const int64_t ms =
      absl::ToInt64Milliseconds(absl::Ceil(timeout, absl::Milliseconds(1)));
  const int ready = poll(fds, wake_fd >= 0 ? 2 : 1, static_cast<int>(ms));
  if (ready < 0 && errno != EINTR) {
    return absl::UnavailableError("listen connection lost");
  }
  if (ready <= 0 || fds[0].revents == 0) return 0;
  if (PQconsumeInput(conn_) == 0 || PQstatus(conn_) != CONNECTION_OK) {
    log::Warning("listen connection lost", {{"error", PQerrorMessage(conn_)}});
    return absl::UnavailableError("listen connection lost");
  }
  return Drain();
}

absl::Status NotificationListener::Notify() {
  PGresult* result = PQexec(conn_, notify_sql_.c_str());
  const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
  PQclear(result);
  if (!ok) {
    log::Warning("NOTIFY failed", {{"error", PQerrorMessage(conn_)}});
    return absl::UnavailableError("listen connection lost");
  }
  return absl::OkStatus();
}

}  // namespace mdc::storage
