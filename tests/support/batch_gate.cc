#include "tests/support/batch_gate.h"

#include <gtest/gtest.h>

#include "absl/time/clock.h"

namespace mdc::testing {
namespace {

// The advisory lock's key: any number no other test locks.
#define MDC_BATCH_GATE_KEY "250425"

}  // namespace

const storage::Statement BatchGate::kWait{
    "batch_gate_wait", "SELECT pg_advisory_xact_lock(" MDC_BATCH_GATE_KEY ")"};

BatchGate::BatchGate(TestDatabase& db) : db_(db) {
  auto conn = storage::Connection::Open(db.url());
  if (!conn.ok()) {
    ADD_FAILURE() << "batch gate: " << conn.status();
    return;
  }
  holder_ = std::move(*conn);
  auto locked =
      holder_->ExecScript("SELECT pg_advisory_lock(" MDC_BATCH_GATE_KEY ")");
  if (!locked.ok()) ADD_FAILURE() << "batch gate: " << locked.status();
}

BatchGate::~BatchGate() { Open(); }

void BatchGate::AwaitWaiter() {
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (db_.Query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                   "AND objid = " MDC_BATCH_GATE_KEY " AND NOT granted AND "
                   "database = (SELECT oid FROM pg_database WHERE datname = "
                   "current_database())") == "0") {
    if (absl::Now() > deadline) {
      ADD_FAILURE() << "no batch waits at the gate after 60 s";
      return;
    }
    absl::SleepFor(absl::Milliseconds(5));
  }
}

void BatchGate::Open() {
  if (holder_ == nullptr) return;
  auto unlocked = holder_->ExecScript("SELECT pg_advisory_unlock_all()");
  if (!unlocked.ok()) ADD_FAILURE() << "batch gate: " << unlocked.status();
  holder_.reset();
}

#undef MDC_BATCH_GATE_KEY

}  // namespace mdc::testing
