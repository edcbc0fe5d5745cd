// One dedicated PostgreSQL connection that LISTENs on a channel and waits for
// NOTIFYs (which PostgreSQL delivers at commit, in commit order). Not from
// the pool: a listening connection is never handed to a statement.
//
// Not thread-safe: one thread owns it.
#ifndef MDC_STORAGE_NOTIFICATION_LISTENER_H_
#define MDC_STORAGE_NOTIFICATION_LISTENER_H_

#include <libpq-fe.h>

#include <memory>
#include <string>

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

  // Waits up to `timeout` for notifications. Returns how many arrived (0 on
  // timeout), or UNAVAILABLE when the connection is lost: open a new one,
  // and read what may have been missed meanwhile.
  absl::StatusOr<int> Wait(absl::Duration timeout);

 private:
  explicit NotificationListener(PGconn* conn) : conn_(conn) {}
  // Takes every notification libpq has buffered; returns how many.
  int Drain();

  PGconn* conn_;
};

}  // namespace mdc::storage

#endif  // MDC_STORAGE_NOTIFICATION_LISTENER_H_
