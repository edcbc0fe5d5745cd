// Batcher against a real PostgreSQL: statements submitted together run
// together, each gets its own result, and a failing write fails alone.
#include "storage/batcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "storage/observer.h"
#include "storage/pool.h"
#include "tests/support/batch_gate.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr Statement kInsert{"batcher_test_insert",
                            "INSERT INTO batcher_test (k, v) VALUES ($1, $2)"};
constexpr Statement kFind{"batcher_test_find",
                          "SELECT v FROM batcher_test WHERE k = $1"};
// The name the tests' batchers report under.
constexpr absl::string_view kName = "batcher_test";

// The queue depth the tests' batchers last reported (StorageObserver), so a
// test can wait until its submissions all queue.
class QueueDepth : public StorageObserver {
 public:
  void BatchQueueDepth(absl::string_view batcher, int depth) override {
    if (batcher != kName) return;
    absl::MutexLock lock(&mu_);
    depth_ = depth;
  }
  // Returns once `depth` statements wait; fails the test after 60 s.
  void Await(int depth) {
    absl::MutexLock lock(&mu_);
    auto reached = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return depth_ == depth;
    };
    if (!mu_.AwaitWithTimeout(absl::Condition(&reached), absl::Seconds(60))) {
      ADD_FAILURE() << depth << " statements never queued (last " << depth_
                    << ")";
    }
  }

 private:
  absl::Mutex mu_;
  int depth_ ABSL_GUARDED_BY(mu_) = 0;
};

class BatcherTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    db_->Query("CREATE TABLE batcher_test (k integer PRIMARY KEY, v text)");
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  void SetUp() override {
    pool_ = std::make_unique<ConnectionPool>(db_->url(), 4,
                                             absl::ZeroDuration(), &depth_);
  }
  void TearDown() override { pool_.reset(); }

  // Runs `count` submissions on as many threads while `batcher` is held at
  // a gate by one more, and opens the gate only once all of them queue: so
  // they run as one batch, whatever the machine's speed.
  template <typename Submit>
  void RunTogether(Batcher& batcher, int count, Submit submit) {
    testing::BatchGate gate(*db_);
    std::thread holder([&] {
      EXPECT_TRUE(batcher.Run(testing::BatchGate::kWait, Params()).ok());
    });
    gate.AwaitWaiter();  // the holder leads its batch
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) threads.emplace_back(submit, i);
    depth_.Await(count);
    gate.Open();
    holder.join();
    for (auto& t : threads) t.join();
  }

  static testing::TestDatabase* db_;
  QueueDepth depth_;
  std::unique_ptr<ConnectionPool> pool_;
};

testing::TestDatabase* BatcherTest::db_ = nullptr;

TEST_F(BatcherTest, ConcurrentWritesAllCommit) {
  Batcher writes(*pool_, Batcher::Mode::kWrite, 256, 1, kName);
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        const int k = 10000 + t * 100 + i;
        if (!writes.Run(kInsert, Params().Int32(k).Text(std::to_string(k)))
                 .ok()) {
          ++failed;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failed.load(), 0);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM batcher_test WHERE k >= 10000 "
                       "AND k < 20000"),
            "800");
}

TEST_F(BatcherTest, AFailingWriteFailsAloneAndTheOthersCommit) {
  ASSERT_EQ(db_->Query("INSERT INTO batcher_test VALUES (20000, 'taken') "
                       "RETURNING k"),
            "20000");
  Batcher writes(*pool_, Batcher::Mode::kWrite, 256, 1, kName);
  std::vector<absl::Status> results(12);
  // Submission 5 inserts a key that exists; the others new keys.
  RunTogether(writes, 12, [&](int i) {
    const int k = i == 5 ? 20000 : 20001 + i;
    results[i] = writes.Run(kInsert, Params().Int32(k).Text("new")).status();
  });
  for (int i = 0; i < 12; ++i) {
    if (i == 5) {
      EXPECT_EQ(SqlState(results[i]), std::string(kUniqueViolation))
          << results[i];
    } else {
      EXPECT_TRUE(results[i].ok()) << i << ": " << results[i];
    }
  }
  EXPECT_EQ(db_->Query("SELECT count(*) FROM batcher_test WHERE k > 20000 "
                       "AND k < 20100 AND v = 'new'"),
            "11");
  EXPECT_EQ(db_->Query("SELECT v FROM batcher_test WHERE k = 20000"), "taken");
  // The connection is usable afterwards.
  EXPECT_TRUE(writes.Run(kInsert, Params().Int32(20100).Text("after")).ok());
}

TEST_F(BatcherTest, BatchedReadsEachGetTheirOwnRows) {
  for (int k = 30000; k < 30020; ++k) {
    ASSERT_EQ(
        db_->Query("INSERT INTO batcher_test VALUES (" + std::to_string(k) +
                   ", 'v" + std::to_string(k) + "') RETURNING k"),
        std::to_string(k));
  }
  Batcher reads(*pool_, Batcher::Mode::kRead, 256, 1, kName);
  std::vector<std::string> got(20);
  std::vector<int> rows(20, -1);
  RunTogether(reads, 20, [&](int i) {
    auto result = reads.Run(kFind, Params().Int32(30000 + i));
    ASSERT_TRUE(result.ok()) << result.status();
    rows[i] = result->rows();
    if (result->rows() == 1) got[i] = result->String(0, 0);
  });
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(rows[i], 1) << i;
    EXPECT_EQ(got[i], "v" + std::to_string(30000 + i));
  }
}

TEST_F(BatcherTest, IdenticalReadsInABatchEachGetTheRows) {
  ASSERT_EQ(db_->Query("INSERT INTO batcher_test VALUES (40000, 'shared') "
                       "RETURNING k"),
            "40000");
  Batcher reads(*pool_, Batcher::Mode::kRead, 256, 1, kName);
  std::vector<std::string> got(16);
  // Half read key 40000, half a key that does not exist.
  RunTogether(reads, 16, [&](int i) {
    auto result = reads.Run(kFind, Params().Int32(i % 2 == 0 ? 40000 : 40001));
    ASSERT_TRUE(result.ok()) << result.status();
    got[i] = result->rows() == 1 ? result->String(0, 0) : "<none>";
  });
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(got[i], i % 2 == 0 ? "shared" : "<none>") << i;
  }
}

TEST_F(BatcherTest, AFailingReadDoesNotSinkTheOthers) {
  constexpr Statement kDivide{"batcher_test_divide", "SELECT (100 / $1)::text"};
  Batcher reads(*pool_, Batcher::Mode::kRead, 256, 1, kName);
  std::vector<absl::StatusOr<std::string>> got(8, std::string());
  RunTogether(reads, 8, [&](int i) {
    // Submission 3 divides by zero.
    auto result = reads.Run(kDivide, Params().Int32(i == 3 ? 0 : i + 1));
    if (!result.ok()) {
      got[i] = result.status();
    } else {
      got[i] = result->String(0, 0);
    }
  });
  for (int i = 0; i < 8; ++i) {
    if (i == 3) {
      EXPECT_FALSE(got[i].ok());
    } else {
      ASSERT_TRUE(got[i].ok()) << i << ": " << got[i].status();
      EXPECT_EQ(*got[i], std::to_string(100 / (i + 1)));
    }
  }
}

}  // namespace
}  // namespace mdc::storage
