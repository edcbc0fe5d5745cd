// AsyncBatcher against a real PostgreSQL: every submission is answered once,
// statements queued while a batch runs commit together in one transaction,
// a failing write fails alone, and destruction runs what was submitted.
#include "storage/async_batcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "tests/support/batch_gate.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr Statement kInsert{
    "async_batcher_test_insert",
    "INSERT INTO async_batcher_test (k, v) VALUES ($1, $2) "
    "RETURNING txid_current()::text"};
// A batch held at a BatchGate keeps the batcher's one thread busy, so what
// is submitted meanwhile queues and goes in the next batch.

class AsyncBatcherTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    db_->Query(
        "CREATE TABLE async_batcher_test (k integer PRIMARY KEY, v text)");
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  static std::string Count(int from, int to) {
    return db_->Query("SELECT count(*) FROM async_batcher_test WHERE k >= " +
                      std::to_string(from) + " AND k < " + std::to_string(to));
  }

  static testing::TestDatabase* db_;
};

testing::TestDatabase* AsyncBatcherTest::db_ = nullptr;

TEST_F(AsyncBatcherTest, EverySubmissionIsAnsweredOnceAndCommitted) {
  AsyncBatcher writes(db_->pool(), BatchMode::kWrite, 256, 1);
  constexpr int kThreads = 16, kEach = 50;
  absl::BlockingCounter answered(kThreads * kEach);
  std::vector<std::atomic<int>> answers(kThreads * kEach);
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const int n = t * kEach + i;
        writes.Submit(kInsert,
                      Params().Int32(10000 + n).Text(std::to_string(n)),
                      [&, n](absl::StatusOr<Result> result) {
                        if (!result.ok()) ++failed;
                        ++answers[n];
                        answered.DecrementCount();
                      });
      }
    });
  }
  for (auto& t : threads) t.join();
  answered.Wait();
  EXPECT_EQ(failed.load(), 0);
  for (int n = 0; n < kThreads * kEach; ++n) EXPECT_EQ(answers[n], 1) << n;
  EXPECT_EQ(Count(10000, 20000), std::to_string(kThreads * kEach));
}

TEST_F(AsyncBatcherTest, WritesQueuedMeanwhileCommitTogether) {
  AsyncBatcher writes(db_->pool(), BatchMode::kWrite, 256, 1);
  absl::BlockingCounter answered(11);
  testing::BatchGate gate(*db_);
  writes.Submit(testing::BatchGate::kWait, Params(),
                [&](absl::StatusOr<Result>) { answered.DecrementCount(); });
  gate.AwaitWaiter();  // the gate's batch is running
  absl::Mutex mu;
  std::set<std::string> transactions;
  std::atomic<int> failed{0};
  for (int i = 0; i < 10; ++i) {
    writes.Submit(kInsert, Params().Int32(20000 + i).Text("together"),
                  [&](absl::StatusOr<Result> result) {
                    if (result.ok()) {
                      absl::MutexLock lock(&mu);
                      transactions.insert(result->String(0, 0));
                    } else {
                      ++failed;
                    }
                    answered.DecrementCount();
                  });
  }
  gate.Open();
  answered.Wait();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(transactions.size(), 1u) << "one batch, one transaction";
  EXPECT_EQ(Count(20000, 20010), "10");
}

TEST_F(AsyncBatcherTest, AFailingWriteFailsAloneAndTheOthersCommit) {
  ASSERT_EQ(db_->Query("INSERT INTO async_batcher_test VALUES (30000, 'taken') "
                       "RETURNING k"),
            "30000");
  AsyncBatcher writes(db_->pool(), BatchMode::kWrite, 256, 1);
  absl::BlockingCounter answered(13);
  testing::BatchGate gate(*db_);
  writes.Submit(testing::BatchGate::kWait, Params(),
                [&](absl::StatusOr<Result>) { answered.DecrementCount(); });
  gate.AwaitWaiter();  // the gate's batch is running
  std::vector<absl::Status> results(12);
  // Submission 5 inserts the key that exists; the others new keys.
  for (int i = 0; i < 12; ++i) {
    const int k = i == 5 ? 30000 : 30001 + i;
    writes.Submit(kInsert, Params().Int32(k).Text("new"),
                  [&, i](absl::StatusOr<Result> result) {
                    results[i] = result.status();
                    answered.DecrementCount();
                  });
  }
  gate.Open();
  answered.Wait();
  for (int i = 0; i < 12; ++i) {
    if (i == 5) {
      EXPECT_EQ(SqlState(results[i]), std::string(kUniqueViolation))
          << results[i];
    } else {
      EXPECT_TRUE(results[i].ok()) << i << ": " << results[i];
    }
  }
  EXPECT_EQ(Count(30001, 30100), "11");
  EXPECT_EQ(db_->Query("SELECT v FROM async_batcher_test WHERE k = 30000"),
            "taken");
}

TEST_F(AsyncBatcherTest, DestructionRunsWhatWasSubmitted) {
  std::atomic<int> ok{0};
  testing::BatchGate gate(*db_);
  auto writes =
      std::make_unique<AsyncBatcher>(db_->pool(), BatchMode::kWrite, 256, 1);
  writes->Submit(testing::BatchGate::kWait, Params(),
                 [](absl::StatusOr<Result>) {});
  gate.AwaitWaiter();  // the batcher's one thread is held
  for (int i = 0; i < 20; ++i) {
    writes->Submit(kInsert, Params().Int32(40000 + i).Text("late"),
                   [&](absl::StatusOr<Result> result) {
                     if (result.ok()) ++ok;
                   });
  }
  // The batcher is destroyed with the 20 still queued behind the held
  // batch. CRAFT: the gate opens once the destroying thread has started;
  // nothing shows the destructor itself has begun, but the 20 cannot run
  // before the gate opens and the destructor returns only once they did.
  absl::Notification destroying;
  std::thread destroyer([&] {
    destroying.Notify();
    writes.reset();
  });
  destroying.WaitForNotification();
  gate.Open();
  destroyer.join();
  EXPECT_EQ(ok.load(), 20);
  EXPECT_EQ(Count(40000, 40020), "20");
}

}  // namespace
}  // namespace mdc::storage
