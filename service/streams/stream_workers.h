// A few threads for the blocking parts of the stream RPCs (token lookups,
// catch-up and replay pages from the database), so that the gRPC callback
// threads never wait on libpq and no stream holds a thread while it idles.
//
// Thread-safe.
#ifndef MDC_SERVICE_STREAMS_STREAM_WORKERS_H_
#define MDC_SERVICE_STREAMS_STREAM_WORKERS_H_

#include <deque>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/synchronization/mutex.h"

namespace mdc {

class StreamWorkers {
 public:
  explicit StreamWorkers(int threads);
  // Runs every job already posted, then joins the threads.
  ~StreamWorkers();
  StreamWorkers(const StreamWorkers&) = delete;
  StreamWorkers& operator=(const StreamWorkers&) = delete;

  // Queues `job`; one of the threads runs it, in posting order.
  void Post(absl::AnyInvocable<void() &&> job);

 private:
  void Loop();

  absl::Mutex mu_;
  std::deque<absl::AnyInvocable<void() &&>> jobs_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace mdc

#endif  // MDC_SERVICE_STREAMS_STREAM_WORKERS_H_
