// Statement::plan_each_time against a real PostgreSQL: such a statement is
// never prepared on the connection (so PostgreSQL plans it with each call's
// values and never falls back to a generic plan), in a single call and in a
// pipeline alike, and it answers as a prepared one does.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "storage/pg.h"
#include "storage/pool.h"
#include "tests/support/test_database.h"

namespace mdc::storage {
namespace {

constexpr Statement kPlannedEachTime{"plan_each_time_next", "SELECT $1 + 1",
                                     /*merged=*/nullptr,
                                     /*plan_each_time=*/true};
constexpr Statement kPrepared{"plan_each_time_prepared", "SELECT $1 + 2"};
constexpr Statement kPreparedNamed{
    "plan_each_time_count",
    "SELECT count(*) FROM pg_prepared_statements WHERE name = $1"};

TEST(PlanEachTime, IsNeverPreparedAndAnswersAsAPreparedStatementDoes) {
  testing::TestDatabase db;
  ConnectionPool pool(db.url(), 1, absl::Seconds(5));
  auto conn = pool.Acquire();
  ASSERT_TRUE(conn.ok()) << conn.status();
  // More calls than PostgreSQL's five custom plans before a generic one.
  for (int64_t i = 0; i < 8; ++i) {
    auto next = (*conn)->Exec(kPlannedEachTime, Params().Int64(i));
    ASSERT_TRUE(next.ok()) << next.status();
    EXPECT_EQ(next->Int64(0, 0), i + 1);
  }
  const Params first = Params().Int64(10);
  const Params second = Params().Int64(20);
  auto both = (*conn)->ExecPipeline(
      {{&kPlannedEachTime, &first}, {&kPrepared, &second}});
  ASSERT_EQ(both.size(), 2u);
  ASSERT_TRUE(both[0].ok()) << both[0].status();
  ASSERT_TRUE(both[1].ok()) << both[1].status();
  EXPECT_EQ(both[0]->Int64(0, 0), 11);
  EXPECT_EQ(both[1]->Int64(0, 0), 22);

  auto count = [&](const char* name) {
    auto n = (*conn)->Exec(kPreparedNamed, Params().Text(name));
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? n->Int64(0, 0) : -1;
  };
  EXPECT_EQ(count(kPlannedEachTime.name), 0);
  EXPECT_EQ(count(kPrepared.name), 1);  // the check itself can see one
}

}  // namespace
}  // namespace mdc::storage
