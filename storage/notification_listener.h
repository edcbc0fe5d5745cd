// One dedicated PostgreSQL connection that LISTENs on a channel, waits for
// other sessions' NOTIFYs on it, and sends its own. Not from the pool: a
// listening connection is never handed to a statement.
//
// Not thread-safe: one thread owns it.
#ifndef MDC_STORAGE_NOTIFICATION_LISTENER_H_
#define MDC_STORAGE_NOTIFICATION_LISTENER_H_

#include <libpq-fe.h>

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace mdc::storage {

class NotificationListener {
 public:
  // Connects to `url` and runs LISTEN `channel` (an SQL identifier).
  // Returns UNAVAILABLE when the server cannot be reached.
  static absl::StatusOr<std::unique_ptr<NotificationListener>> Open(
      const std::string& url, const std::string& channel);

  ~NotificationListener();
  NotificationListener(const NotificationListener&) = delete;
  NotificationListener& operator=(const NotificationListener&) = delete;

  // Waits up to `timeout` for notifications from other sessions, or until
  // `wake_fd` (when >= 0) is readable; the caller drains `wake_fd`.
  // Returns how many notifications arrived (0 on timeout or wake), or
  // UNAVAILABLE when the connection is lost: open a new one, and read what
  // may have been missed meanwhile.
  absl::StatusOr<int> Wait(absl::Duration timeout, int wake_fd = -1);

  // Sends NOTIFY on the channel, in a transaction of its own that does not
  // wait for its commit to be flushed (a notification needs no
  // durability). UNAVAILABLE when the connection is lost.
  absl::Status Notify();

 private:
  NotificationListener(PGconn* conn, std::string notify_sql)
      : conn_(conn), notify_sql_(std::move(notify_sql)) {}
  // Takes every notification libpq has buffered; returns how many came
  // from other sessions.
  int Drain();

  PGconn* conn_;
  const std::string notify_sql_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_NOTIFICATION_LISTENER_H_
