// The dashboard's repositories against a real PostgreSQL: runs and orders
// scoped to their owner, partial updates, cascades, paging; the sign-in
// failure counter; the day reads of shortlists; the batched quote reads.
#include <gtest/gtest.h>

#include "absl/time/time.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/repositories.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class DashboardRepositoriesTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    owner_ = NewDeveloper("dash", &owner_hash_);
    other_ = NewDeveloper("dash");
  }

  RunRecord Run(int64_t developer, std::vector<std::string> tags = {}) {
    NewRun run;
    run.name = "run";
    run.tags = std::move(tags);
    run.start_at = At("2025-03-03T09:15:00");
    run.end_at = At("2025-03-03T15:30:00");
    auto created = repos_->runs.CreateRun(developer, run);
    EXPECT_TRUE(created.ok()) << created.status();
    return *created;
  }

  NewOrder Order(const char* wall_clock) {
    return NewOrder{"INFY", 100, 98, 105, At(wall_clock)};
  }

  int64_t owner_ = 0;
  std::string owner_hash_;
  int64_t other_ = 0;
};

TEST_F(DashboardRepositoriesTest, RunsAreVisibleOnlyToTheirOwner) {
  const RunRecord run = Run(owner_, {"a", "b"});
  EXPECT_EQ(run.order_count, 0);
  EXPECT_EQ(run.tags, (std::vector<std::string>{"a", "b"}));

  auto mine = repos_->runs.FindRun(owner_, run.id);
  ASSERT_TRUE(mine.ok()) << mine.status();
  ASSERT_TRUE(mine->has_value());
  EXPECT_EQ((*mine)->name, "run");

  auto theirs = repos_->runs.FindRun(other_, run.id);
  ASSERT_TRUE(theirs.ok());
  EXPECT_FALSE(theirs->has_value());
  auto update = repos_->runs.UpdateRun(other_, run.id, {true, "x", {}});
  ASSERT_TRUE(update.ok());
  EXPECT_FALSE(update->has_value());
  auto order =
      repos_->runs.CreateOrder(other_, run.id, Order("2025-03-03T10:00:00"));
  ASSERT_TRUE(order.ok());
  EXPECT_FALSE(order->has_value());
  auto deleted = repos_->runs.DeleteRun(other_, run.id);
  ASSERT_TRUE(deleted.ok());
  EXPECT_FALSE(*deleted);
  auto listed = repos_->runs.ListRuns(other_, "", std::nullopt, 100);
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());

  // Nothing of the owner's changed.
  auto still = repos_->runs.FindRun(owner_, run.id);
  ASSERT_TRUE(still.ok() && still->has_value());
  EXPECT_FALSE((*still)->completed);
  EXPECT_EQ((*still)->order_count, 0);
}

TEST_F(DashboardRepositoriesTest, UpdateChangesOnlyTheFieldsGiven) {
  const RunRecord run = Run(owner_, {"keep"});
  RunChanges completed_only;
  completed_only.completed = true;
  auto updated = repos_->runs.UpdateRun(owner_, run.id, completed_only);
  ASSERT_TRUE(updated.ok()) << updated.status();
  ASSERT_TRUE(updated->has_value());
  EXPECT_TRUE((*updated)->completed);
  EXPECT_EQ((*updated)->name, "run");
  EXPECT_EQ((*updated)->tags, std::vector<std::string>{"keep"});

  RunChanges clear;
  clear.name = "";
  clear.tags = std::vector<std::string>();
  updated = repos_->runs.UpdateRun(owner_, run.id, clear);
  ASSERT_TRUE(updated.ok() && updated->has_value());
  EXPECT_TRUE((*updated)->completed);
  EXPECT_EQ((*updated)->name, "");
  EXPECT_TRUE((*updated)->tags.empty());
}

TEST_F(DashboardRepositoriesTest, DeletingARunDeletesItsOrders) {
  const RunRecord run = Run(owner_);
  for (const char* t : {"2025-03-03T10:00:00", "2025-03-03T09:30:00"}) {
    auto order = repos_->runs.CreateOrder(owner_, run.id, Order(t));
    ASSERT_TRUE(order.ok()) << order.status();
    ASSERT_TRUE(order->has_value());
  }
  auto found = repos_->runs.FindRun(owner_, run.id);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->order_count, 2);
  auto orders = repos_->runs.ListOrders(run.id, std::nullopt, 100);
  ASSERT_TRUE(orders.ok());
  ASSERT_EQ(orders->size(), 2u);
  EXPECT_EQ((*orders)[0].ordered_at, At("2025-03-03T09:30:00"));

  auto deleted = repos_->runs.DeleteRun(owner_, run.id);
  ASSERT_TRUE(deleted.ok());
  EXPECT_TRUE(*deleted);
  EXPECT_EQ(db_->Query("SELECT count(*) FROM orders WHERE run_id = " +
                       std::to_string(run.id)),
            "0");
}

TEST_F(DashboardRepositoriesTest, RunsPageNewestFirstAndFilterByTag) {
  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i) {
    ids.push_back(Run(owner_, i % 2 == 0 ? std::vector<std::string>{"even"}
                                         : std::vector<std::string>{"odd"})
                      .id);
  }
  auto first = repos_->runs.ListRuns(owner_, "", std::nullopt, 2);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0].id, ids[4]);
  EXPECT_EQ((*first)[1].id, ids[3]);
  auto second = repos_->runs.ListRuns(
      owner_, "",
      domain::PageCursor{first->back().created_at, first->back().id}, 10);
  ASSERT_TRUE(second.ok());
  ASSERT_EQ(second->size(), 3u);
  EXPECT_EQ((*second)[0].id, ids[2]);
  EXPECT_EQ((*second)[2].id, ids[0]);

  auto even = repos_->runs.ListRuns(owner_, "even", std::nullopt, 10);
  ASSERT_TRUE(even.ok());
  EXPECT_EQ(even->size(), 3u);

  auto tags = repos_->runs.ListTags(owner_);
  ASSERT_TRUE(tags.ok());
  EXPECT_EQ(*tags, (std::vector<std::string>{"even", "odd"}));
  auto none = repos_->runs.ListTags(other_);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST_F(DashboardRepositoriesTest, TagsSortInByteOrder) {
  Run(owner_, {"B", "a"});
  Run(owner_, {"_x", "a"});
  auto tags = repos_->runs.ListTags(owner_);
  ASSERT_TRUE(tags.ok());
  EXPECT_EQ(*tags, (std::vector<std::string>{"B", "_x", "a"}));
}

TEST_F(DashboardRepositoriesTest, SignInFailuresCountPerClient) {
  // Minutes of a named instant: no test straddles a minute's end.
  const absl::Time at = absl::FromCivil(
      absl::CivilSecond(2030, 2, 1, 9, 15, 20), absl::UTCTimeZone());
  auto none = repos_->sign_ins.FailuresThisMinute("198.51.100.1", at);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(*none, 0);
  ASSERT_TRUE(repos_->sign_ins.RecordFailure("198.51.100.1", at).ok());
  EXPECT_EQ(
      *repos_->sign_ins.RecordFailure("198.51.100.1", at + absl::Seconds(39)),
      2)
      << "the same minute";
  ASSERT_TRUE(repos_->sign_ins.RecordFailure("198.51.100.2", at).ok());
  EXPECT_EQ(*repos_->sign_ins.FailuresThisMinute("198.51.100.1", at), 2);
  EXPECT_EQ(*repos_->sign_ins.FailuresThisMinute("198.51.100.2", at), 1);
  // The next minute starts from nothing; a past minute does not count.
  EXPECT_EQ(*repos_->sign_ins.FailuresThisMinute("198.51.100.1",
                                                 at + absl::Seconds(40)),
            0);
  db_->Query(
      "UPDATE sign_in_failures SET minute = minute - interval '1 minute' "
      "WHERE client_address = '198.51.100.1'");
  EXPECT_EQ(*repos_->sign_ins.FailuresThisMinute("198.51.100.1", at), 0);
  // Without an instant, the database clock's minute: a new client's first
  // failure is its minute's first, whenever it falls.
  EXPECT_EQ(*repos_->sign_ins.RecordFailure("198.51.100.3"), 1);
}

TEST_F(DashboardRepositoriesTest, DaySnapshotsAndInstants) {
  auto save = [&](v1::ShortlistType type, v1::Scope scope, const char* t,
                  std::vector<std::string> symbols) {
    domain::ShortlistSnapshot s;
    s.type = type;
    s.scope = scope;
    s.observed_at = At(t);
    for (const auto& symbol : symbols) {
      s.entries.add_entries()->set_nse_symbol(symbol);
    }
    ASSERT_TRUE(WrittenBy(
        Write(repos_->shortlists, &ShortlistRepository::Upsert, s, owner_hash_),
        owner_));
  };
  save(v1::TOP_GAINERS, v1::TOP_5, "2025-04-07T10:00:00", {"A"});
  save(v1::VOLUME_SHOCKERS, v1::TOP_5, "2025-04-07T10:00:00", {"B"});
  save(v1::TOP_GAINERS, v1::FULL, "2025-04-07T10:00:00", {"C"});
  save(v1::TOP_GAINERS, v1::TOP_5, "2025-04-07T11:00:00", {});
  save(v1::TOP_GAINERS, v1::TOP_5, "2025-04-08T10:00:00", {"D"});

  const absl::CivilDay day(2025, 4, 7);
  auto gainers = repos_->shortlists.ListDaySnapshots(
      v1::TOP_GAINERS, v1::TOP_5, day, At("2025-04-07T23:59:59"));
  ASSERT_TRUE(gainers.ok()) << gainers.status();
  ASSERT_EQ(gainers->size(), 2u);
  EXPECT_EQ((*gainers)[0].entries(0).nse_symbol(), "A");
  EXPECT_EQ((*gainers)[1].entries_size(), 0);

  auto every_type = repos_->shortlists.ListDaySnapshots(
      v1::SHORTLIST_TYPE_UNSPECIFIED, v1::TOP_5, day,
      At("2025-04-07T10:30:00"));
  ASSERT_TRUE(every_type.ok());
  ASSERT_EQ(every_type->size(), 2u);
  EXPECT_EQ((*every_type)[0].shortlist_type(), v1::TOP_GAINERS);
  EXPECT_EQ((*every_type)[1].shortlist_type(), v1::VOLUME_SHOCKERS);

  auto days = repos_->shortlists.ListDays(At("2025-04-30T00:00:00"));
  ASSERT_TRUE(days.ok());
  std::vector<std::pair<absl::CivilDay, int>> got;
  for (const auto& d : *days) {
    if (d.day >= day) got.emplace_back(d.day, d.instants);
  }
  EXPECT_EQ(got, (std::vector<std::pair<absl::CivilDay, int>>{
                     {day, 2}, {absl::CivilDay(2025, 4, 8), 1}}));
  auto instants =
      repos_->shortlists.ListDayInstants(day, At("2025-04-07T10:59:59"));
  ASSERT_TRUE(instants.ok());
  EXPECT_EQ(*instants, std::vector<absl::Time>{At("2025-04-07T10:00:00")});

  // One list only: its own days and instants.
  const ShortlistRepository::ListKey shockers{v1::VOLUME_SHOCKERS, v1::TOP_5};
  auto shocker_days =
      repos_->shortlists.ListDays(At("2025-04-30T00:00:00"), shockers);
  ASSERT_TRUE(shocker_days.ok()) << shocker_days.status();
  std::vector<std::pair<absl::CivilDay, int>> shocker_got;
  for (const auto& d : *shocker_days) {
    if (d.day >= day) shocker_got.emplace_back(d.day, d.instants);
  }
  EXPECT_EQ(shocker_got,
            (std::vector<std::pair<absl::CivilDay, int>>{{day, 1}}));
  const ShortlistRepository::ListKey gainers_top5{v1::TOP_GAINERS, v1::TOP_5};
  auto gainer_instants = repos_->shortlists.ListDayInstants(
      day, At("2025-04-07T23:59:59"), gainers_top5);
  ASSERT_TRUE(gainer_instants.ok());
  EXPECT_EQ(*gainer_instants,
            (std::vector<absl::Time>{At("2025-04-07T10:00:00"),
                                     At("2025-04-07T11:00:00")}));
  auto full_instants = repos_->shortlists.ListDayInstants(
      day, At("2025-04-07T23:59:59"),
      ShortlistRepository::ListKey{v1::TOP_GAINERS, v1::FULL});
  ASSERT_TRUE(full_instants.ok());
  EXPECT_EQ(*full_instants, std::vector<absl::Time>{At("2025-04-07T10:00:00")});
}

TEST_F(DashboardRepositoriesTest, BatchedQuoteReads) {
  auto save = [&](const char* t,
                  std::vector<std::pair<std::string, double>> quotes) {
    domain::QuoteBatch batch;
    batch.observed_at = At(t);
    for (const auto& [symbol, price] : quotes) {
      domain::StockObservation q;
      q.symbol = symbol;
      q.quote.set_status(v1::SUCCESS);
      q.quote.mutable_payload()->set_last_price(price);
      q.quote.mutable_payload()->set_volume(1000);
      batch.quotes.push_back(std::move(q));
    }
    ASSERT_TRUE(WrittenBy(Write(repos_->quotes, &QuoteRepository::UpsertBatch,
                                batch, owner_hash_),
                          owner_));
  };
  save("2025-05-05T09:20:00", {{"QA", 10}, {"QB", 20}});
  save("2025-05-05T09:21:00", {{"QA", 11}});
  save("2025-05-06T09:20:00", {{"QA", 12}});

  auto latest = repos_->quote_batches.FindLatestOfSymbols(
      {"QA", "QB", "QC"}, At("2025-05-05T00:00:00"), At("2025-05-05T09:21:00"));
  ASSERT_TRUE(latest.ok()) << latest.status();
  ASSERT_EQ(latest->size(), 2u);
  EXPECT_EQ(latest->at("QA").quote_data().payload().last_price(), 11);
  EXPECT_EQ(latest->at("QB").quote_data().payload().last_price(), 20);

  auto prices = repos_->quote_batches.PricesOfSymbolDays(
      {{"QA", absl::CivilDay(2025, 5, 5)},
       {"QA", absl::CivilDay(2025, 5, 6)},
       {"QC", absl::CivilDay(2025, 5, 5)}},
      At("2025-05-06T09:20:00"));
  ASSERT_TRUE(prices.ok()) << prices.status();
  ASSERT_EQ(prices->size(), 1u);  // the 6th is cut by `before`
  const auto& qa = prices->at({"QA", absl::CivilDay(2025, 5, 5)});
  ASSERT_EQ(qa.size(), 2u);
  EXPECT_EQ(qa[0].last_price, 10);
  EXPECT_EQ(qa[1].last_price, 11);
  EXPECT_EQ(qa[1].time, At("2025-05-05T09:21:00"));
}

}  // namespace
}  // namespace mdc::storage
