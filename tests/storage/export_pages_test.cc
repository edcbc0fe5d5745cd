// MarketEventRepository's export pages (StoredRecordPage): each stored
// QuoteData is forwarded as the bytes it was saved as, so a receiver that
// parses the ExportChunk gets back exactly what was saved, as the quote_data
// field (not as an unknown field); and the pages hold the same records, in
// the same order and with the same keyset bounds, as the day replay's.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domain/observations.h"
#include "domain/stream_cursors.h"
#include "domain/time.h"
#include "mdc/v1/export.pb.h"
#include "storage/market_event_repository.h"
#include "tests/support/repository_test.h"

namespace mdc::storage {
namespace {

using google::protobuf::util::MessageDifferencer;

constexpr absl::CivilDay kDay(2036, 5, 6);

// A quote with every part a collector may send: the payload numbers, the
// day's OHLC and five depth levels a side (one level without a quantity).
v1::QuoteData FullQuote(double last_price) {
  v1::QuoteData quote;
  quote.set_status(v1::SUCCESS);
  v1::QuotePayload* payload = quote.mutable_payload();
  payload->set_last_price(last_price);
  payload->set_volume(123456);
  payload->set_day_change_perc(-1.25);
  payload->set_last_trade_time(2093503500000);
  payload->mutable_ohlc()->set_open(last_price - 1);
  payload->mutable_ohlc()->set_close(last_price + 0.5);
  for (int level = 0; level < 5; ++level) {
    v1::DepthLevel* buy = payload->mutable_depth()->add_buy();
    buy->set_price(last_price - 0.1 * (level + 1));
    if (level != 2) buy->set_quantity(10 * (level + 1));
    v1::DepthLevel* sell = payload->mutable_depth()->add_sell();
    sell->set_price(last_price + 0.1 * (level + 1));
    sell->set_quantity(20 * (level + 1));
  }
  return quote;
}

// A failed fetch: a status and no payload.
v1::QuoteData BareQuote() {
  v1::QuoteData quote;
  quote.set_status(v1::FAILURE);
  return quote;
}

// `chunk` serialized and parsed back, as a receiver gets it.
v1::ExportChunk Received(const v1::ExportChunk& chunk) {
  v1::ExportChunk received;
  EXPECT_TRUE(received.ParseFromString(chunk.SerializeAsString()));
  return received;
}

// Whether `quote_data` arrived as the field, not as an unknown field.
template <typename Quote>
::testing::AssertionResult ArrivedAsTheField(const Quote& quote) {
  if (!quote.has_quote_data()) {
    return ::testing::AssertionFailure() << "no quote_data";
  }
  if (!quote.GetReflection()->GetUnknownFields(quote).empty()) {
    return ::testing::AssertionFailure() << "unknown fields left";
  }
  return ::testing::AssertionSuccess();
}

class ExportPagesTest : public testing::RepositoryTest {
 protected:
  void SetUp() override {
    RepositoryTest::SetUp();
    writer_id_ = NewDeveloper("export-pages", &writer_hash_);
    ASSERT_FALSE(HasFailure());
  }

  // Stores `quotes` (symbol, quote) at `wall_clock` of kDay (IST).
  void WriteQuotes(const std::string& wall_clock,
                   const std::vector<domain::StockObservation>& quotes) {
    domain::QuoteBatch batch;
    batch.observed_at = At(wall_clock);
    batch.quotes = quotes;
    ASSERT_TRUE(WrittenBy(Write(repos_->quotes, &QuoteRepository::UpsertBatch,
                                batch, writer_hash_),
                          writer_id_));
  }

  void WriteNifty(const std::string& wall_clock, const v1::QuoteData& quote,
                  double day_change_perc) {
    domain::NiftyObservation nifty;
    nifty.observed_at = At(wall_clock);
    nifty.quote = quote;
    nifty.day_change_perc = day_change_perc;
    ASSERT_TRUE(WrittenBy(
        Write(repos_->nifty, &NiftyRepository::Upsert, nifty, writer_hash_),
        writer_id_));
  }

  static absl::Time At(const std::string& wall_clock) {
    return *domain::ParseInstant(domain::FormatDate(kDay) + "T" + wall_clock,
                                 "Asia/Kolkata");
  }
  static domain::KeysetBound DayStart() {
    return domain::DayStartBound(domain::DayStart(kDay));
  }
  static absl::Time DayEnd() { return domain::DayStart(kDay + 1); }

  int64_t writer_id_ = 0;
  std::string writer_hash_;
};

TEST_F(ExportPagesTest, QuotesCarryExactlyTheStoredQuoteData) {
  const v1::QuoteData full = FullQuote(2500.5);
  const v1::QuoteData bare = BareQuote();
  WriteQuotes("09:15:00", {{"EXB", bare}, {"EXA", full}});
  WriteQuotes("09:16:00", {{"EXA", FullQuote(2501)}});
  MarketEventRepository events(db_->pool());

  auto page = events.ExportQuotes(kDay, {}, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 3);
  v1::ExportChunk chunk;
  for (int row = 0; row < page->size(); ++row) {
    page->CopyTo(row, *chunk.add_records()->mutable_quote());
  }
  const v1::ExportChunk received = Received(chunk);
  ASSERT_EQ(received.records_size(), 3);

  // In replay order (instant, then symbol), each as saved.
  const std::vector<std::pair<std::string, v1::QuoteData>> saved = {
      {"EXA", full}, {"EXB", bare}, {"EXA", FullQuote(2501)}};
  for (int i = 0; i < 3; ++i) {
    const v1::StockQuote& quote = received.records(i).quote();
    EXPECT_EQ(quote.nse_symbol(), saved[i].first) << i;
    EXPECT_TRUE(ArrivedAsTheField(quote)) << i;
    EXPECT_TRUE(MessageDifferencer::Equals(quote.quote_data(), saved[i].second))
        << i << ": " << quote.quote_data().DebugString();
  }
  EXPECT_FALSE(received.records(1).quote().quote_data().has_payload());

  // The replay's records, field for field (the replay parses them).
  auto replay = events.ReplayQuotes(kDay, {}, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(replay.ok()) << replay.status();
  ASSERT_EQ(replay->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(MessageDifferencer::Equals(received.records(i).quote(),
                                           (*replay)[i].event.quote()))
        << i;
  }
}

TEST_F(ExportPagesTest, NiftyQuotesCarryExactlyTheStoredQuoteData) {
  const v1::QuoteData full = FullQuote(23456.75);
  const v1::QuoteData bare = BareQuote();
  WriteNifty("10:00:00", full, 0.42);
  WriteNifty("10:01:00", bare, -0.1);
  MarketEventRepository events(db_->pool());

  auto page = events.ExportNifty(kDay, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 2);
  v1::ExportChunk chunk;
  for (int row = 0; row < page->size(); ++row) {
    page->CopyTo(row, *chunk.add_records()->mutable_nifty());
  }
  const v1::ExportChunk received = Received(chunk);
  ASSERT_EQ(received.records_size(), 2);
  const v1::NiftyQuote& first = received.records(0).nifty();
  const v1::NiftyQuote& second = received.records(1).nifty();
  EXPECT_TRUE(ArrivedAsTheField(first));
  EXPECT_TRUE(ArrivedAsTheField(second));
  EXPECT_TRUE(MessageDifferencer::Equals(first.quote_data(), full))
      << first.quote_data().DebugString();
  EXPECT_TRUE(MessageDifferencer::Equals(second.quote_data(), bare))
      << second.quote_data().DebugString();
  EXPECT_EQ(first.day_change_perc(), 0.42);
  EXPECT_EQ(second.day_change_perc(), -0.1);
  EXPECT_EQ(first.timestamp().seconds(), absl::ToUnixSeconds(At("10:00:00")));

  auto replay = events.ReplayNifty(kDay, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(replay.ok()) << replay.status();
  ASSERT_EQ(replay->size(), 2u);
  EXPECT_TRUE(MessageDifferencer::Equals(first, (*replay)[0].event.nifty()));
  EXPECT_TRUE(MessageDifferencer::Equals(second, (*replay)[1].event.nifty()));
}

TEST_F(ExportPagesTest, PagesFollowTheReplaysOrderAndBounds) {
  WriteQuotes(
      "11:00:00",
      {{"PGC", BareQuote()}, {"PGA", FullQuote(1)}, {"PGB", FullQuote(2)}});
  WriteQuotes("11:00:01", {{"PGA", FullQuote(3)}, {"PGD", BareQuote()}});
  MarketEventRepository events(db_->pool());
  const std::vector<std::string> symbols = {"PGA", "PGB", "PGC", "PGD"};
  auto replay = events.ReplayQuotes(kDay, symbols, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(replay.ok()) << replay.status();
  ASSERT_EQ(replay->size(), 5u);

  // Pages of two, each starting after the bound of the previous one's last
  // row: the replay's records in its order.
  size_t next = 0;
  domain::KeysetBound bound = DayStart();
  while (true) {
    auto page = events.ExportQuotes(kDay, symbols, bound, DayEnd(), 2);
    ASSERT_TRUE(page.ok()) << page.status();
    for (int row = 0; row < page->size(); ++row, ++next) {
      ASSERT_LT(next, replay->size());
      v1::StockQuote quote;
      page->CopyTo(row, quote);
      v1::StockQuote received;
      ASSERT_TRUE(received.ParseFromString(quote.SerializeAsString()));
      EXPECT_TRUE(
          MessageDifferencer::Equals(received, (*replay)[next].event.quote()))
          << next;
      const domain::ReplayPosition& position = (*replay)[next].position;
      const domain::KeysetBound after = page->BoundAfter(row);
      EXPECT_EQ(after.at, position.at) << next;
      EXPECT_EQ(after.key1, position.key1) << next;
      EXPECT_EQ(after.key2, position.key2) << next;
    }
    if (page->size() < 2) break;
    bound = page->BoundAfter(page->size() - 1);
  }
  EXPECT_EQ(next, replay->size());
}

// The export no longer checks stored bytes (they were checked when
// written): a row corrupted in the database goes out as it is, and the
// receiver's parse reports it, where the replay answers DATA_LOSS.
TEST_F(ExportPagesTest, ACorruptedStoredQuoteGoesOutForTheReceiverToRefuse) {
  WriteQuotes("13:00:00", {{"BAD", FullQuote(7)}});
  db_->Query(
      "UPDATE stock_quotes SET quote_data = '\\xffffffff'::bytea "
      "WHERE nse_symbol = 'BAD'");
  MarketEventRepository events(db_->pool());
  auto page = events.ExportQuotes(kDay, {"BAD"}, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 1);
  v1::ExportChunk chunk;
  page->CopyTo(0, *chunk.add_records()->mutable_quote());
  v1::ExportChunk received;
  EXPECT_FALSE(received.ParseFromString(chunk.SerializeAsString()));
  auto replay = events.ReplayQuotes(kDay, {"BAD"}, DayStart(), DayEnd(), 10);
  EXPECT_EQ(replay.status().code(), absl::StatusCode::kDataLoss);
}

TEST_F(ExportPagesTest, ShortlistsAreTheReplaysShortlists) {
  domain::ShortlistSnapshot snapshot;
  snapshot.type = v1::VOLUME_SHOCKERS;
  snapshot.scope = v1::FULL;
  snapshot.observed_at = At("12:00:00");
  v1::ShortlistEntry* entry = snapshot.entries.add_entries();
  entry->set_nse_symbol("INFY");
  entry->set_price(1500.25);
  *entry->mutable_quote_data() = FullQuote(1500.25);
  ASSERT_TRUE(WrittenBy(Write(repos_->shortlists, &ShortlistRepository::Upsert,
                              snapshot, writer_hash_),
                        writer_id_));
  MarketEventRepository events(db_->pool());
  auto page = events.ExportShortlists(kDay, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(page.ok()) << page.status();
  ASSERT_EQ(page->size(), 1);
  v1::Shortlist shortlist;
  ASSERT_TRUE(page->CopyTo(0, shortlist).ok());
  auto replay = events.ReplayShortlists(kDay, DayStart(), DayEnd(), 10);
  ASSERT_TRUE(replay.ok()) << replay.status();
  ASSERT_EQ(replay->size(), 1u);
  EXPECT_TRUE(
      MessageDifferencer::Equals(shortlist, (*replay)[0].event.shortlist()));
  EXPECT_EQ(shortlist.shortlist_type(), v1::VOLUME_SHOCKERS);
  EXPECT_EQ(shortlist.scope(), v1::FULL);
}

}  // namespace
}  // namespace mdc::storage
