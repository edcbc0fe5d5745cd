// Merged write batches (storage/merged_batch.h) against a real PostgreSQL:
// the submissions of a statement with a merged form that queue while a batch
// runs go to the database as one statement in one transaction; each still
// gets its own answer; of several writes of one key the last wins; a write
// that fails fails alone, with its own error, and the others commit; and
// parameters that cannot travel as arrays are sent one by one.
#include "storage/merged_batch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/synchronization/blocking_counter.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "storage/async_batcher.h"
#include "storage/observer.h"
#include "storage/pool.h"
#include "tests/support/batch_gate.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

// The merged form of kUpsert: answers each submission's key, its
// transaction and, last, its place.
constexpr Statement kUpsertMany{
    "merged_batch_test_upsert_many",
    "WITH input AS (SELECT * FROM unnest($1::int4[], $2::text[]) "
    "WITH ORDINALITY AS i(k, v, place)), "
    "stored AS (INSERT INTO merged_batch_test (k, v) "
    "SELECT DISTINCT ON (k) k, v FROM input ORDER BY k, place DESC "
    "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v) "
    "SELECT k, txid_current()::text, place FROM input ORDER BY place"};
constexpr Statement kUpsert{
    "merged_batch_test_upsert",
    "INSERT INTO merged_batch_test (k, v) VALUES ($1, $2) "
    "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v "
    "RETURNING k, txid_current()::text",
    &kUpsertMany};
// A merged form that answers in the wrong order: a bug the batch must not
// pass on as answers.
constexpr Statement kUpsertManyReversed{
    "merged_batch_test_upsert_many_reversed",
    "SELECT k, txid_current()::text, place FROM unnest($1::int4[], "
    "$2::text[]) WITH ORDINALITY AS i(k, v, place) ORDER BY place DESC"};
constexpr Statement kUpsertReversed{
    "merged_batch_test_upsert_reversed",
    "INSERT INTO merged_batch_test (k, v) VALUES ($1, $2) "
    "RETURNING k, txid_current()::text",
    &kUpsertManyReversed};
// Takes an array parameter, which cannot travel as an element of an array:
// its merged form is never used.
constexpr Statement kUpsertTags{"merged_batch_test_upsert_tags",
                                "INSERT INTO merged_batch_test (k, v) "
                                "VALUES ($1, array_to_string($2::text[], ',')) "
                                "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v "
                                "RETURNING k, txid_current()::text",
                                &kUpsertMany};
// Counts the statements the batches report.
class StatementCounter : public StorageObserver {
 public:
  void BatchStatements(absl::string_view, int sent) override { sent_ += sent; }
  int sent() const { return sent_.load(); }

 private:
  std::atomic<int> sent_{0};
};

class MergedBatchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new testing::TestDatabase();
    db_->Query(
        "CREATE TABLE merged_batch_test (k integer PRIMARY KEY, "
        "v text CHECK (v <> 'bad'))");
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  void SetUp() override {
    pool_ = std::make_unique<ConnectionPool>(db_->url(), 2, absl::Seconds(30),
                                             &counter_);
    writes_ = std::make_unique<AsyncBatcher>(*pool_, BatchMode::kWrite, 256, 1);
  }

  struct Answer {
    absl::Status status;
    int rows = 0;
    int64_t key = 0;
    std::string transaction;
  };

  // Holds the batcher at a gate, then submits `params` of `statement` in
  // order and opens the gate, so that they all go in one batch; returns
  // their answers.
  std::vector<Answer> SubmitTogether(const Statement& statement,
                                     const std::vector<Params>& params) {
    absl::BlockingCounter answered(static_cast<int>(params.size()) + 1);
    const int sent_before = counter_.sent();
    testing::BatchGate gate(*db_);
    writes_->Submit(testing::BatchGate::kWait, Params(),
                    [&](absl::StatusOr<Result> held) {
                      EXPECT_TRUE(held.ok()) << held.status();
                      answered.DecrementCount();
                    });
    gate.AwaitWaiter();  // the gate's batch is running
    std::vector<Answer> answers(params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      writes_->Submit(statement, params[i],
                      [&, i](absl::StatusOr<Result> result) {
                        Answer& answer = answers[i];
                        answer.status = result.status();
                        if (result.ok()) {
                          answer.rows = result->rows();
                          if (answer.rows > 0) {
                            answer.key = result->Int64(0, 0);
                            answer.transaction = result->String(0, 1);
                          }
                        }
                        answered.DecrementCount();
                      });
    }
    gate.Open();
    answered.Wait();
    // Every batch reports its statements before it answers: all counted.
    sent_ = counter_.sent() - sent_before - 1;  // the gate's own
    return answers;
  }

  static std::string Value(int k) {
    return db_->Query("SELECT v FROM merged_batch_test WHERE k = " +
                      std::to_string(k));
  }

  static testing::TestDatabase* db_;
  StatementCounter counter_;
  std::unique_ptr<ConnectionPool> pool_;
  std::unique_ptr<AsyncBatcher> writes_;
  int sent_ = 0;  // statements the last SubmitTogether's batch ran
};

testing::TestDatabase* MergedBatchTest::db_ = nullptr;

TEST_F(MergedBatchTest, QueuedWritesRunAsOneStatementAndEachGetsItsAnswer) {
  std::vector<Params> params;
  for (int i = 0; i < 10; ++i) {
    params.push_back(Params().Int32(100 + i).Text("v" + std::to_string(i)));
  }
  const std::vector<Answer> answers = SubmitTogether(kUpsert, params);
  EXPECT_EQ(sent_, 1) << "ten writes, one statement";
  std::set<std::string> transactions;
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(answers[i].status.ok()) << i << ": " << answers[i].status;
    EXPECT_EQ(answers[i].rows, 1) << i;
    EXPECT_EQ(answers[i].key, 100 + i) << "the answer of submission " << i;
    transactions.insert(answers[i].transaction);
    EXPECT_EQ(Value(100 + i), "v" + std::to_string(i));
  }
  EXPECT_EQ(transactions.size(), 1u) << "one batch, one transaction";
}

TEST_F(MergedBatchTest, OfSeveralWritesOfOneKeyTheLastWins) {
  const std::vector<Answer> answers = SubmitTogether(
      kUpsert,
      {Params().Int32(200).Text("first"), Params().Int32(201).Text("other"),
       Params().Int32(200).Text("second"), Params().Int32(200).Text("third")});
  EXPECT_EQ(sent_, 1);
  for (const Answer& answer : answers) {
    EXPECT_TRUE(answer.status.ok()) << answer.status;
    EXPECT_EQ(answer.rows, 1);
  }
  EXPECT_EQ(Value(200), "third");
  EXPECT_EQ(Value(201), "other");
  // And again, the same writes: an idempotent upsert.
  SubmitTogether(kUpsert, {Params().Int32(200).Text("first"),
                           Params().Int32(200).Text("third")});
  EXPECT_EQ(Value(200), "third");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM merged_batch_test "
                       "WHERE k IN (200, 201)"),
            "2");
}

TEST_F(MergedBatchTest, AFailingWriteFailsAloneAndTheOthersCommit) {
  std::vector<Params> params;
  for (int i = 0; i < 6; ++i) {
    params.push_back(Params().Int32(300 + i).Text(i == 3 ? "bad" : "good"));
  }
  const std::vector<Answer> answers = SubmitTogether(kUpsert, params);
  // The merged statement failed, then each ran alone.
  EXPECT_EQ(sent_, 1 + 6);
  for (int i = 0; i < 6; ++i) {
    if (i == 3) {
      EXPECT_FALSE(answers[i].status.ok());
      EXPECT_EQ(Value(300 + i), "") << "nothing of it stored";
    } else {
      EXPECT_TRUE(answers[i].status.ok()) << i << ": " << answers[i].status;
      EXPECT_EQ(answers[i].key, 300 + i);
      EXPECT_EQ(Value(300 + i), "good");
    }
  }
}

TEST_F(MergedBatchTest, ParametersThatCannotBeArraysAreSentOneByOne) {
  const std::vector<Answer> answers =
      SubmitTogether(kUpsertTags, {Params().Int32(400).TextArray({"a", "b"}),
                                   Params().Int32(401).TextArray({"c"})});
  EXPECT_EQ(sent_, 2);
  for (const Answer& answer : answers) {
    EXPECT_TRUE(answer.status.ok()) << answer.status;
  }
  EXPECT_EQ(Value(400), "a,b");
  EXPECT_EQ(Value(401), "c");
}

TEST_F(MergedBatchTest, AMergedAnswerOutOfOrderIsAnErrorNotAWrongAnswer) {
  const std::vector<Answer> answers = SubmitTogether(
      kUpsertReversed,
      {Params().Int32(500).Text("a"), Params().Int32(501).Text("b")});
  for (const Answer& answer : answers) {
    EXPECT_EQ(answer.status.code(), absl::StatusCode::kInternal)
        << answer.status;
  }
}

TEST(ParamsColumnsTest, EachParameterBecomesTheArrayOfItsValues) {
  Params a, b;
  a.Int32(1).Text("x").OptionalDouble(2.5);
  b.Int32(2).Text("y").OptionalDouble(std::nullopt);
  auto columns = Params::Columns({&a, &b});
  ASSERT_TRUE(columns.has_value());
  EXPECT_EQ(columns->types(), (std::vector<Oid>{1007, 1009, 1022}));
  Params other;
  other.Int64(1).Text("x").Double(1);
  EXPECT_FALSE(Params::Columns({&a, &other}).has_value());
  EXPECT_FALSE(Params::Columns({}).has_value());
}

}  // namespace
}  // namespace mdc::storage
