// The admission gate of heavy reads: the RPCs whose option says
// `heavy_read` (a cross-section of up to 1,000 symbols, the candles of up
// to 100, the dashboard's coverage). One of them costs the database, the
// server and the gateway as much as hundreds of ordinary calls; unbounded,
// a few dozen at once take every database connection and both cores, and
// the collectors' writes, whose observations are lost for good when they
// are not written in time, wait behind them (docs/performance.md,
// "Read/write isolation").
//
// Two limits, both counted per server:
//   - `server` heavy reads run at once; a further one waits, first come
//     first served, until one ends or its wait runs out (the `wait` limit
//     or the call's own deadline, whichever comes first), and is then
//     refused;
//   - `per_developer` heavy reads of one developer, running or waiting; a
//     further one is refused at once, so one developer's burst can neither
//     fill the queue nor make others wait long.
// A refusal is RESOURCE_EXHAUSTED with reason HEAVY_READS_LIMITED (metadata
// `limit`: "developer" or "server") and a retry delay (the gateway's 429
// with Retry-After): nothing was read.
//
// Thread-safe.
#ifndef MDC_SERVICE_CALLS_HEAVY_READ_GATE_H_
#define MDC_SERVICE_CALLS_HEAVY_READ_GATE_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace mdc {

// MDC_HEAVY_READS, MDC_HEAVY_READS_PER_DEVELOPER, MDC_HEAVY_READ_WAIT.
struct HeavyReadLimits {
  // Heavy reads running at once in the server; 0: no server-wide limit.
  int server = 2;
  // Heavy reads of one developer, running or waiting; 0: no such limit.
  int per_developer = 2;
  // The longest a heavy read waits for its turn.
  absl::Duration wait = absl::Seconds(10);
};

// The retry delay of a refusal: a heavy read takes tens of milliseconds to
// a few seconds, so one second later a turn is likely free.
inline constexpr absl::Duration kHeavyReadRetryDelay = absl::Seconds(1);

class HeavyReadGate {
 public:
  // A heavy read's turn, held while it runs; gives it back when destroyed.
  class Pass {
   public:
    Pass(Pass&& other) noexcept;
    Pass& operator=(Pass&&) = delete;
    Pass(const Pass&) = delete;
    ~Pass();

   private:
    friend class HeavyReadGate;
    Pass(HeavyReadGate* gate, std::string developer)
        : gate_(gate), developer_(std::move(developer)) {}
    HeavyReadGate* gate_;  // nullptr once moved from
    std::string developer_;
  };

  explicit HeavyReadGate(HeavyReadLimits limits);

  // A turn for a heavy read of `developer`: at once when the limits allow,
  // else after waiting (see above) until `deadline` at the latest (capped at
  // now + the `wait` limit). RESOURCE_EXHAUSTED (reason HEAVY_READS_LIMITED)
  // when refused.
  absl::StatusOr<Pass> Enter(absl::string_view developer, absl::Time deadline);

  // Heavy reads running and waiting now (tests, metrics).
  int running() const;
  int waiting() const;

 private:
  void Leave(const std::string& developer);
  // One heavy read of `developer` fewer (running or waiting).
  void Forget(const std::string& developer) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Whether the waiter holding `ticket` may run now.
  bool TurnOf(uint64_t ticket) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const HeavyReadLimits limits_;
  mutable absl::Mutex mu_;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  // Tickets of the waiters, oldest first: the oldest runs next.
  absl::btree_set<uint64_t> waiting_ ABSL_GUARDED_BY(mu_);
  uint64_t next_ticket_ ABSL_GUARDED_BY(mu_) = 0;
  // Heavy reads of each developer, running or waiting (none: no entry).
  absl::flat_hash_map<std::string, int> per_developer_ ABSL_GUARDED_BY(mu_);
};

}  // namespace mdc

#endif  // MDC_SERVICE_CALLS_HEAVY_READ_GATE_H_
