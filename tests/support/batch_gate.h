// A gate that holds the write batcher for a test, without timing: the test
// takes a PostgreSQL advisory lock on a connection of its own, submits
// BatchGate::kWait (which waits for that lock inside its batch's
// transaction), awaits the moment PostgreSQL shows it waiting, and only then
// submits the writes it wants batched. The write batcher runs one batch at a
// time (storage/pool.cc), so those writes queue, all of them, for the next
// batch, which starts when the test calls Open(). (A pg_sleep hold instead
// depends on the machine being quick enough.)
#ifndef MDC_TESTS_SUPPORT_BATCH_GATE_H_
#define MDC_TESTS_SUPPORT_BATCH_GATE_H_

#include <memory>
#include <string>

#include "storage/pg.h"
#include "tests/support/test_database.h"

namespace mdc::testing {

class BatchGate {
 public:
  // The statement a batch waits in until Open().
  static const storage::Statement kWait;

  // Takes the lock on a connection of its own to db (fails the test when
  // it cannot).
  explicit BatchGate(TestDatabase& db);
  ~BatchGate();  // opens the gate
  BatchGate(const BatchGate&) = delete;
  BatchGate& operator=(const BatchGate&) = delete;

  // Returns once a session of db waits for the lock (the batch running
  // kWait has started); fails the test after 60 seconds.
  void AwaitWaiter();
  // Releases the lock: the waiting batch goes on.
  void Open();

 private:
  TestDatabase& db_;
  std::unique_ptr<storage::Connection> holder_;
};

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_BATCH_GATE_H_
