// The collector writes of one batch merged into one statement per table
// (Statement::merged of the shortlist and NIFTY upserts), against a real
// PostgreSQL: every write answers its own writer, or none when nobody holds
// its token (and writes nothing); of several writes of one key the last
// written wins, as if they had run one after the other; a NULL column
// travels as such. And batching still batches: writes queued behind a
// running batch go as one statement, however many (issue 25).
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/blocking_counter.h"
#include "absl/time/clock.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/observer.h"
#include "storage/pool.h"
#include "storage/repositories.h"
#include "tests/support/batch_gate.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class StatementCounter : public StorageObserver {
 public:
  void BatchStatements(absl::string_view batcher, int sent) override {
    if (batcher == ConnectionPool::kWrites) sent_ += sent;
  }
  int sent() const { return sent_.load(); }

 private:
  std::atomic<int> sent_{0};
};

class MergedWritesTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    pool_ = std::make_unique<ConnectionPool>(db_->url(), 4, absl::Seconds(30),
                                             &counter_);
    repos_ = std::make_unique<Repositories>(*pool_);
    a_ = NewDeveloper("a", &a_hash_);
    b_ = NewDeveloper("b", &b_hash_);
    ASSERT_FALSE(HasFailure());
  }
  void TearDown() override { repos_.reset(); }

  // Holds the write batcher at a gate, then starts `writes` in order (each
  // calls its argument when answered), so that they queue for one batch,
  // opens the gate; returns the statements that batch ran.
  int Together(std::vector<std::function<void(DeveloperCallback)>> writes,
               std::vector<Written>& answers) {
    absl::BlockingCounter answered(static_cast<int>(writes.size()) + 1);
    const int before = counter_.sent();
    testing::BatchGate gate(*db_);
    pool_->SubmitWrite(testing::BatchGate::kWait, Params(),
                       [&](absl::StatusOr<Result> held) {
                         EXPECT_TRUE(held.ok()) << held.status();
                         answered.DecrementCount();
                       });
    gate.AwaitWaiter();
    answers.assign(writes.size(), absl::UnknownError("no answer"));
    for (size_t i = 0; i < writes.size(); ++i) {
      writes[i]([&, i](Written written) {
        answers[i] = std::move(written);
        answered.DecrementCount();
      });
    }
    gate.Open();
    answered.Wait();
    return counter_.sent() - before - 1;  // the gate's own statement
  }

  std::function<void(DeveloperCallback)> Shortlist(absl::Time at,
                                                   const std::string& symbol,
                                                   const std::string& token) {
    domain::ShortlistSnapshot s;
    s.type = v1::VOLUME_SHOCKERS;
    s.scope = v1::TOP_5;
    s.observed_at = at;
    auto* entry = s.entries.add_entries();
    entry->set_nse_symbol(symbol);
    entry->set_price(10);
    return [this, s, token](DeveloperCallback done) {
      repos_->shortlists.Upsert(s, token, std::move(done));
    };
  }

  std::function<void(DeveloperCallback)> Nifty(absl::Time at,
                                               std::optional<double> price,
                                               const std::string& token) {
    domain::NiftyObservation n;
    n.observed_at = at;
    n.day_change_perc = 0.5;
    n.quote.set_status(v1::SUCCESS);
    if (price.has_value()) n.quote.mutable_payload()->set_last_price(*price);
    return [this, n, token](DeveloperCallback done) {
      repos_->nifty.Upsert(n, token, std::move(done));
    };
  }

  static std::string ShortlistAt(const char* utc) {
    return db_->Query(
        std::string("SELECT written_by || ' ' || entry_count || ' ' || "
                    "length(entries) FROM shortlist_snapshots WHERE "
                    "shortlist_type = 'VOLUME_SHOCKERS' AND observed_at = '") +
        utc + "'");
  }

  StatementCounter counter_;
  std::unique_ptr<ConnectionPool> pool_;
  int64_t a_ = 0, b_ = 0;
  std::string a_hash_, b_hash_;
};

TEST_F(MergedWritesTest, ShortlistWritesOfABatchAreOneStatement) {
  const std::string stranger = domain::HashToken(domain::GenerateToken());
  const absl::Time one = At("2025-04-01T10:00:00");
  const absl::Time two = At("2025-04-01T10:01:00");
  const absl::Time three = At("2025-04-01T10:02:00");
  std::vector<Written> answers;
  const int statements =
      Together({Shortlist(one, "X", a_hash_), Shortlist(two, "U", stranger),
                Shortlist(three, "BEE", b_hash_), Shortlist(one, "YY", a_hash_),
                Shortlist(one, "QQQQ", stranger)},
               answers);
  EXPECT_EQ(statements, 1) << "five writes, one statement";
  EXPECT_TRUE(WrittenBy(answers[0], a_));
  ASSERT_TRUE(answers[1].ok()) << answers[1].status();
  EXPECT_FALSE(answers[1]->has_value()) << "nobody holds the token";
  EXPECT_TRUE(WrittenBy(answers[2], b_));
  EXPECT_TRUE(WrittenBy(answers[3], a_));
  ASSERT_TRUE(answers[4].ok()) << answers[4].status();
  EXPECT_FALSE(answers[4]->has_value());
  // 10:00 IST = 04:30 UTC. The last write of a known writer wins (its one
  // entry "YY" serializes longer than "X"); the stranger's wrote nothing.
  v1::Shortlist yy;
  yy.add_entries()->set_nse_symbol("YY");
  yy.mutable_entries(0)->set_price(10);
  EXPECT_EQ(ShortlistAt("2025-04-01T04:30:00Z"),
            absl::StrCat(a_, " 1 ", yy.ByteSizeLong()));
  EXPECT_EQ(ShortlistAt("2025-04-01T04:31:00Z"), "");
  EXPECT_EQ(db_->Query("SELECT written_by FROM shortlist_snapshots WHERE "
                       "shortlist_type = 'VOLUME_SHOCKERS' AND "
                       "observed_at = '2025-04-01T04:32:00Z'"),
            std::to_string(b_));
}

TEST_F(MergedWritesTest, NiftyWritesOfABatchAreOneStatementAndKeepNulls) {
  const absl::Time t = At("2025-04-02T11:00:00");
  const absl::Time u = At("2025-04-02T11:01:00");
  std::vector<Written> answers;
  const int statements =
      Together({Nifty(t, 100.5, a_hash_), Nifty(u, std::nullopt, b_hash_),
                Nifty(t, 200.25, b_hash_)},
               answers);
  EXPECT_EQ(statements, 1);
  EXPECT_TRUE(WrittenBy(answers[0], a_));
  EXPECT_TRUE(WrittenBy(answers[1], b_));
  EXPECT_TRUE(WrittenBy(answers[2], b_));
  EXPECT_EQ(
      db_->Query("SELECT last_price || ' ' || written_by FROM "
                 "nifty_quotes WHERE observed_at = '2025-04-02T05:30:00Z'"),
      absl::StrCat("200.25 ", b_));
  EXPECT_EQ(db_->Query("SELECT (last_price IS NULL)::text FROM nifty_quotes "
                       "WHERE observed_at = '2025-04-02T05:31:00Z'"),
            "true");
}

// The regression guard of issue 25: under load, collector writes that
// queue behind a running batch run as one statement, not one each, and
// every writer still gets its own answer. Deterministic: the writes are all
// queued before the batch in front of them may finish (BatchGate).
TEST_F(MergedWritesTest, QueuedShortlistWritesRunAsOneStatement) {
  constexpr int kWrites = 64;
  std::vector<std::function<void(DeveloperCallback)>> writes;
  for (int i = 0; i < kWrites; ++i) {
    writes.push_back(Shortlist(At("2025-04-03T09:00:00") + absl::Seconds(i),
                               absl::StrCat("S", i),
                               i % 2 ? a_hash_ : b_hash_));
  }
  std::vector<Written> answers;
  EXPECT_EQ(Together(std::move(writes), answers), 1)
      << kWrites << " queued shortlist writes, one statement";
  for (int i = 0; i < kWrites; ++i) {
    EXPECT_TRUE(WrittenBy(answers[i], i % 2 ? a_ : b_)) << "write " << i;
  }
  EXPECT_EQ(db_->Query("SELECT count(*) FROM shortlist_snapshots WHERE "
                       "observed_at >= '2025-04-03T03:30:00Z' AND "
                       "observed_at < '2025-04-03T03:32:00Z'"),
            std::to_string(kWrites));
}

}  // namespace
}  // namespace mdc::storage
