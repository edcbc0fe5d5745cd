// Repositories against a real PostgreSQL: migrations, idempotent upserts,
// all-or-nothing batches, exact round trips.
#include "storage/repositories.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "domain/observations.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/migrations.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class RepositoriesTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    writer_id_ = NewDeveloper("writer", &writer_hash_);
    ASSERT_FALSE(HasFailure());  // no writer, nothing to test
  }

  static domain::ShortlistSnapshot Snapshot(absl::Time at,
                                            std::vector<std::string> symbols) {
    domain::ShortlistSnapshot s;
    s.type = v1::TOP_GAINERS;
    s.scope = v1::FULL;
    s.observed_at = at;
    for (const auto& symbol : symbols) {
      auto* e = s.entries.add_entries();
      e->set_nse_symbol(symbol);
      e->set_name(symbol + " Ltd");
      e->set_price(101.25);
    }
    return s;
  }

  int64_t writer_id_ = 0;
  std::string writer_hash_;
};

TEST_F(RepositoriesTest, MigrationsAreRecordedAndRunOnce) {
  EXPECT_EQ(db_->Query("SELECT count(*) FROM schema_migrations"),
            std::to_string(EmbeddedMigrations().size()));
  auto again = ApplyMigrations(db_->pool(), EmbeddedMigrations());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->empty());
}

TEST_F(RepositoriesTest, ShortlistUpsertIsIdempotentAndLastWriteWins) {
  const absl::Time t = At("2025-03-03T10:00:00");
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              Snapshot(t, {"A", "B"}), writer_hash_),
                        writer_id_));
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              Snapshot(t, {"C"}), writer_hash_),
                        writer_id_));
  EXPECT_EQ(db_->Query("SELECT count(*) FROM shortlist_snapshots WHERE "
                       "observed_at = '2025-03-03T04:30:00Z'"),
            "1");
  auto found = repos_->shortlists.FindLatest(
      v1::TOP_GAINERS, v1::FULL, domain::DayStart(domain::TradingDay(t)), t);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  ASSERT_EQ((*found)->entries_size(), 1);
  EXPECT_EQ((*found)->entries(0).nse_symbol(), "C");
  EXPECT_EQ(db_->Query("SELECT written_by FROM shortlist_snapshots WHERE "
                       "observed_at = '2025-03-03T04:30:00Z'"),
            std::to_string(writer_id_));
}

TEST_F(RepositoriesTest, ShortlistAsOfStaysOnTheTradingDay) {
  const absl::Time yesterday = At("2025-03-04T15:00:00");
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              Snapshot(yesterday, {"OLD"}), writer_hash_),
                        writer_id_));
  const absl::Time morning = At("2025-03-05T09:20:00");
  auto found = repos_->shortlists.FindLatest(
      v1::TOP_GAINERS, v1::FULL, domain::DayStart(domain::TradingDay(morning)),
      morning);
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(found->has_value());
}

TEST_F(RepositoriesTest, NiftyRoundTripIsExact) {
  domain::NiftyObservation nifty;
  nifty.observed_at = At("2025-03-06T11:00:00");
  nifty.day_change_perc = -0.1234567890123;
  nifty.quote.set_status(v1::SUCCESS);
  nifty.quote.mutable_payload()->set_last_price(22123.45);
  nifty.quote.mutable_payload()->set_last_trade_time(1741239000123);
  ASSERT_TRUE(WrittenBy(
      Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
      writer_id_));
  auto found = repos_->nifty.FindLatest(
      domain::DayStart(absl::CivilDay(2025, 3, 6)), nifty.observed_at);
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->day_change_perc(), -0.1234567890123);
  EXPECT_EQ((*found)->quote_data().payload().last_price(), 22123.45);
  EXPECT_EQ((*found)->quote_data().payload().last_trade_time(), 1741239000123);
  EXPECT_FALSE((*found)->quote_data().payload().has_volume());
}

TEST_F(RepositoriesTest, QuoteBatchIsAllOrNothing) {
  domain::QuoteBatch batch;
  batch.observed_at = At("2025-03-07T10:00:00");
  for (const char* symbol : {"AAA", "BBB", "AAA"}) {  // duplicate key
    v1::QuoteData quote;
    quote.set_status(v1::SUCCESS);
    quote.mutable_payload()->set_last_price(10);
    batch.quotes.push_back({symbol, quote});
  }
  EXPECT_FALSE(
      Write(repos_->quotes, &QuoteRepository::UpsertBatch, batch, writer_hash_)
          .ok());
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes WHERE observed_at = "
                       "'2025-03-07T04:30:00Z'"),
            "0");
  batch.quotes.pop_back();
  ASSERT_TRUE(WrittenBy(
      Write(repos_->quotes, &QuoteRepository::UpsertBatch, batch, writer_hash_),
      writer_id_));
  ASSERT_TRUE(WrittenBy(
      Write(repos_->quotes, &QuoteRepository::UpsertBatch, batch, writer_hash_),
      writer_id_));
  EXPECT_EQ(db_->Query("SELECT count(*) FROM stock_quotes WHERE observed_at = "
                       "'2025-03-07T04:30:00Z'"),
            "2");
  EXPECT_EQ(db_->Query("SELECT trading_day FROM stock_quotes WHERE "
                       "nse_symbol = 'AAA'"),
            "2025-03-07");
}

// The collector writes authenticate in their own statement: a token hash no
// developer holds writes nothing and says so.
TEST_F(RepositoriesTest, WritesWithAnUnknownTokenStoreNothing) {
  const std::string stranger = domain::HashToken("nobody's token");
  const absl::Time t = At("2025-03-11T10:00:00");
  auto count = [&](const char* table) {
    return db_->Query(absl::StrCat("SELECT count(*) FROM ", table,
                                   " WHERE observed_at = "
                                   "'2025-03-11T04:30:00Z'"));
  };

  auto shortlist = Write(repos_->shortlists, &ShortlistRepository::Upsert,
                         Snapshot(t, {"A"}), stranger);
  ASSERT_TRUE(shortlist.ok()) << shortlist.status();
  EXPECT_FALSE(shortlist->has_value());
  EXPECT_EQ(count("shortlist_snapshots"), "0");

  domain::NiftyObservation nifty;
  nifty.observed_at = t;
  nifty.quote.set_status(v1::SUCCESS);
  nifty.quote.mutable_payload()->set_last_price(22000);
  auto nifty_written =
      Write(repos_->nifty, &NiftyRepository::Upsert, nifty, stranger);
  ASSERT_TRUE(nifty_written.ok()) << nifty_written.status();
  EXPECT_FALSE(nifty_written->has_value());
  EXPECT_EQ(count("nifty_quotes"), "0");

  domain::QuoteBatch batch;
  batch.observed_at = t;
  batch.quotes.push_back({"AAA", nifty.quote});
  auto quotes =
      Write(repos_->quotes, &QuoteRepository::UpsertBatch, batch, stranger);
  ASSERT_TRUE(quotes.ok()) << quotes.status();
  EXPECT_FALSE(quotes->has_value());
  EXPECT_EQ(count("stock_quotes"), "0");

  // The same writes with the writer's token store and name it.
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              Snapshot(t, {"A"}), writer_hash_),
                        writer_id_));
  ASSERT_TRUE(WrittenBy(
      Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
      writer_id_));
  ASSERT_TRUE(WrittenBy(
      Write(repos_->quotes, &QuoteRepository::UpsertBatch, batch, writer_hash_),
      writer_id_));
  EXPECT_EQ(count("shortlist_snapshots"), "1");
  EXPECT_EQ(count("nifty_quotes"), "1");
  EXPECT_EQ(count("stock_quotes"), "1");
  EXPECT_EQ(db_->Query("SELECT written_by FROM stock_quotes WHERE "
                       "observed_at = '2025-03-11T04:30:00Z'"),
            std::to_string(writer_id_));
}

TEST_F(RepositoriesTest, UsernamesAreUniqueAndTokensFoundByHash) {
  const std::string token = domain::GenerateToken();
  auto created = repos_->developers.Create("unique-name", "developer",
                                           domain::HashToken(token));
  ASSERT_TRUE(created.ok()) << created.status();
  auto again = repos_->developers.Create("unique-name", "developer",
                                         domain::HashToken("other"));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kAlreadyExists);
  auto found = repos_->developers.FindByTokenHash(domain::HashToken(token));
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->username, "unique-name");
  EXPECT_EQ(db_->Query("SELECT count(*) FROM developers WHERE token_hash = "
                       "convert_to('" +
                       token + "', 'UTF8')"),
            "0");
}

TEST_F(RepositoriesTest, DataDatesCountEveryKind) {
  const absl::Time t = At("2025-03-10T10:00:00");
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              Snapshot(t, {"X"}), writer_hash_),
                        writer_id_));
  auto dates = repos_->market_data.ListDates();
  ASSERT_TRUE(dates.ok()) << dates.status();
  bool seen = false;
  for (const auto& d : *dates) {
    if (d.day == absl::CivilDay(2025, 3, 10)) {
      seen = true;
      EXPECT_EQ(d.shortlists, 1);
    }
  }
  EXPECT_TRUE(seen);
}

}  // namespace
}  // namespace mdc::storage
