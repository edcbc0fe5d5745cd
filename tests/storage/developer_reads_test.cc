// The developer read paths of the repositories against a real PostgreSQL:
// as-of lookups at the edges, keyset pages that return every record once,
// candle inputs, shortlist ranges, and the broker token and its lock.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "domain/observations.h"
#include "domain/proto_time.h"
#include "domain/time.h"
#include "domain/tokens.h"
#include "storage/repositories.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

class DeveloperReadsTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    writer_id_ = NewDeveloper("reader", &writer_hash_);
    ASSERT_FALSE(HasFailure());  // no writer, nothing to test
  }

  void SaveQuote(const std::string& symbol, absl::Time at,
                 std::optional<double> price, std::optional<double> volume) {
    domain::QuoteBatch batch;
    batch.observed_at = at;
    v1::QuoteData quote;
    quote.set_status(v1::SUCCESS);
    if (price.has_value()) quote.mutable_payload()->set_last_price(*price);
    if (volume.has_value()) quote.mutable_payload()->set_volume(*volume);
    batch.quotes.push_back({symbol, quote});
    ASSERT_TRUE(WrittenBy(Write(repos_->quotes, &QuoteRepository::UpsertBatch,
                                batch, writer_hash_),
                          writer_id_));
  }

  int64_t writer_id_ = 0;
  std::string writer_hash_;
};

TEST_F(DeveloperReadsTest, QuoteAsOfEdges) {
  SaveQuote("EDGE", At("2025-03-03T15:00:00"), 90, 1);  // previous day
  SaveQuote("EDGE", At("2025-03-04T12:00:00"), 100, 1);
  SaveQuote("EDGE", At("2025-03-04T12:00:30"), 101, 2);
  SaveQuote("OTHER", At("2025-03-04T11:00:00"), 5, 1);
  const absl::Time day_start = domain::DayStart(absl::CivilDay(2025, 3, 4));
  auto price_as_of = [&](const char* at) -> std::optional<double> {
    auto found = repos_->quotes.FindLatest("EDGE", day_start, At(at));
    EXPECT_TRUE(found.ok()) << found.status();
    if (!found.ok() || !found->has_value()) return std::nullopt;
    EXPECT_EQ((*found)->nse_symbol(), "EDGE");
    return (*found)->quote_data().payload().last_price();
  };
  EXPECT_EQ(price_as_of("2025-03-04T12:00:00"), 100);
  EXPECT_EQ(price_as_of("2025-03-04T12:00:29"), 100);
  EXPECT_EQ(price_as_of("2025-03-04T12:00:30"), 101);
  EXPECT_EQ(price_as_of("2025-03-04T11:59:59"), std::nullopt);
}

TEST_F(DeveloperReadsTest, QuotePagesReturnEveryRecordOnceInHalfOpenRange) {
  // 25 quotes a minute apart from 09:15; read [09:20, 09:35) in pages of 4.
  const absl::Time open = At("2025-03-05T09:15:00");
  for (int i = 0; i < 25; ++i) {
    SaveQuote("PAGED", open + absl::Minutes(i), 100 + i, i);
  }
  const absl::Time start = open + absl::Minutes(5);
  const absl::Time end = open + absl::Minutes(20);
  std::vector<absl::Time> seen;
  std::optional<absl::Time> after;
  int pages = 0;
  while (true) {
    auto page = repos_->quotes.ListRange("PAGED", start, end, after, 4);
    ASSERT_TRUE(page.ok()) << page.status();
    ++pages;
    for (const auto& quote : *page) {
      seen.push_back(domain::FromTimestamp(quote.timestamp()));
    }
    if (page->size() < 4) break;
    after = seen.back();
  }
  EXPECT_EQ(pages, 4);  // 4 + 4 + 4 + 3
  ASSERT_EQ(seen.size(), 15u);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(seen[i], start + absl::Minutes(i)) << i;
  }
}

TEST_F(DeveloperReadsTest, PricePointsSkipUnpricedQuotes) {
  SaveQuote("PTS", At("2025-03-05T09:15:00"), 10, 100);
  SaveQuote("PTS", At("2025-03-05T09:16:00"), std::nullopt, 150);
  SaveQuote("PTS", At("2025-03-05T09:17:00"), 11, std::nullopt);
  auto points =
      repos_->quotes.PricePoints("PTS", At("2025-03-05T09:00:00"),
                                 At("2025-03-05T10:00:00"), std::nullopt, 100);
  ASSERT_TRUE(points.ok()) << points.status();
  ASSERT_EQ(points->size(), 2u);
  EXPECT_EQ((*points)[0].time, At("2025-03-05T09:15:00"));
  EXPECT_EQ((*points)[0].last_price, 10);
  EXPECT_EQ((*points)[0].volume, 100);
  EXPECT_EQ((*points)[1].last_price, 11);
  EXPECT_EQ((*points)[1].volume, std::nullopt);
}

TEST_F(DeveloperReadsTest, NiftyRangeAndPoints) {
  for (int i = 0; i < 3; ++i) {
    domain::NiftyObservation nifty;
    nifty.observed_at = At("2025-03-06T09:15:00") + absl::Minutes(i);
    nifty.day_change_perc = i;
    nifty.quote.mutable_payload()->set_last_price(22000 + i);
    nifty.quote.mutable_payload()->set_volume(1000 * (i + 1));
    ASSERT_TRUE(WrittenBy(
        Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
        writer_id_));
  }
  auto rows = repos_->nifty.ListRange(
      At("2025-03-06T09:15:00"), At("2025-03-06T09:17:00"), std::nullopt, 10);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);  // 09:17:00 is the exclusive end
  EXPECT_EQ((*rows)[1].day_change_perc(), 1);
  auto points = repos_->nifty.PricePoints(At("2025-03-06T09:15:00"),
                                          At("2025-03-06T10:00:00"),
                                          At("2025-03-06T09:15:00"), 10);
  ASSERT_TRUE(points.ok()) << points.status();
  ASSERT_EQ(points->size(), 2u);  // after 09:15:00
  EXPECT_EQ((*points)[0].last_price, 22001);
}

TEST_F(DeveloperReadsTest, ShortlistRangeIsAscendingAndKeepsEmptySnapshots) {
  for (int i = 0; i < 3; ++i) {
    domain::ShortlistSnapshot s;
    s.type = v1::VOLUME_SHOCKERS;
    s.scope = v1::TOP_5;
    s.observed_at = At("2025-03-07T10:00:00") + absl::Minutes(i);
    if (i != 1)
      s.entries.add_entries()->set_nse_symbol("S" + std::to_string(i));
    ASSERT_TRUE(WrittenBy(Write(repos_->shortlists,
                                &ShortlistRepository::Upsert, s, writer_hash_),
                          writer_id_));
  }
  auto rows = repos_->shortlists.ListRange(
      v1::VOLUME_SHOCKERS, v1::TOP_5, At("2025-03-07T10:00:00"),
      At("2025-03-07T11:00:00"), std::nullopt, 10);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);
  EXPECT_EQ((*rows)[0].entries(0).nse_symbol(), "S0");
  EXPECT_EQ((*rows)[1].entries_size(), 0);
  EXPECT_EQ((*rows)[2].entries(0).nse_symbol(), "S2");
  EXPECT_EQ((*rows)[2].shortlist_type(), v1::VOLUME_SHOCKERS);
  auto other = repos_->shortlists.ListRange(
      v1::VOLUME_SHOCKERS, v1::FULL, At("2025-03-07T10:00:00"),
      At("2025-03-07T11:00:00"), std::nullopt, 10);
  ASSERT_TRUE(other.ok());
  EXPECT_TRUE(other->empty());
}

TEST_F(DeveloperReadsTest, BrokerTokenSavedUnderTheLockIsCommitted) {
  const absl::Time expiry = At("2030-01-02T06:00:00");
  ASSERT_TRUE(repos_->broker_tokens
                  .WithRefreshLock(
                      absl::Seconds(5),
                      [&](BrokerTokenRepository::LockedSession& s) {
                        return s.Save(std::string("sealed\0-1", 9), expiry);
                      })
                  .ok());
  auto found = repos_->broker_tokens.Find();
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->access_token_sealed, std::string("sealed\0-1", 9));
  EXPECT_EQ((*found)->expires_at, expiry);

  // A failing body rolls its save back.
  EXPECT_FALSE(
      repos_->broker_tokens
          .WithRefreshLock(absl::Seconds(5),
                           [&](BrokerTokenRepository::LockedSession& s) {
                             EXPECT_TRUE(s.Save("sealed-2", expiry).ok());
                             return absl::UnavailableError("fetch failed");
                           })
          .ok());
  EXPECT_EQ(db_->Query("SELECT encode(access_token_sealed, 'hex') "
                       "FROM broker_tokens"),
            "7365616c6564002d31");
}

TEST_F(DeveloperReadsTest, RefreshLockIsExclusiveAcrossConnections) {
  // Two pools stand for two replicas.
  ConnectionPool other_pool(db_->url(), 2);
  BrokerTokenRepository other(other_pool);
  std::atomic<bool> holding{false};
  std::atomic<bool> release{false};
  std::thread holder([&] {
    ASSERT_TRUE(
        repos_->broker_tokens
            .WithRefreshLock(absl::Seconds(5),
                             [&](BrokerTokenRepository::LockedSession&) {
                               holding = true;
                               while (!release)
                                 absl::SleepFor(absl::Milliseconds(5));
                               return absl::OkStatus();
                             })
            .ok());
  });
  while (!holding) absl::SleepFor(absl::Milliseconds(5));
  bool ran = false;
  absl::Status waited = other.WithRefreshLock(
      absl::Milliseconds(200), [&](BrokerTokenRepository::LockedSession&) {
        ran = true;
        return absl::OkStatus();
      });
  EXPECT_EQ(waited.code(), absl::StatusCode::kUnavailable) << waited;
  EXPECT_FALSE(ran);
  release = true;
  holder.join();
  EXPECT_TRUE(other
                  .WithRefreshLock(absl::Seconds(5),
                                   [&](BrokerTokenRepository::LockedSession&) {
                                     ran = true;
                                     return absl::OkStatus();
                                   })
                  .ok());
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace mdc::storage
