// The NIFTY quote batches of the compacted history (issue 32): a day of the
// index shaped like the market, with real serialized QuoteData, round-trips
// every stored field bit for bit (the day change too), and anything that is
// not such a batch is DataLoss.
#include "domain/nifty_batch_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "mdc/v1/market.pb.h"

namespace mdc::domain {
namespace {

// A day of the index: a quote a second, the level a random walk from the
// previous close, the payload as the collector posts it (last price, day
// change, day change in percent, ohlc) and the day change beside it.
std::vector<StoredNiftyQuote> NiftyDay(int count, uint32_t seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> step(0.0, 1.5);
  const double previous_close = 22150.35;
  double level = previous_close;
  double high = level, low = level;
  const int64_t open_us = int64_t{1767152700} * 1000000;  // 09:15 IST
  std::vector<StoredNiftyQuote> quotes;
  for (int i = 0; i < count; ++i) {
    level = std::round((level + step(random)) * 100) / 100;
    high = std::max(high, level);
    low = std::min(low, level);
    const double change = std::round((level - previous_close) * 100) / 100;
    const double perc =
        std::round(change / previous_close * 100 * 10000) / 10000;
    v1::QuoteData data;
    data.set_status(v1::SUCCESS);
    v1::QuotePayload& payload = *data.mutable_payload();
    payload.set_last_price(level);
    payload.set_day_change(change);
    payload.set_day_change_perc(perc);
    payload.mutable_ohlc()->set_open(22170.1);
    payload.mutable_ohlc()->set_high(high);
    payload.mutable_ohlc()->set_low(low);
    payload.mutable_ohlc()->set_close(previous_close);
    StoredNiftyQuote nifty;
    nifty.quote.observed_at_us = open_us + int64_t{i} * 1000000;
    nifty.quote.last_price = level;
    nifty.quote.quote_data = data.SerializeAsString();
    nifty.quote.written_by = 3;
    nifty.quote.written_at_us =
        nifty.quote.observed_at_us + 900 + random() % 900;
    nifty.quote.seq = 7000 + i * 5 + static_cast<int64_t>(random() % 5);
    nifty.quote.txid = 4000 + static_cast<uint64_t>(i);
    nifty.day_change_perc = perc;
    quotes.push_back(std::move(nifty));
  }
  return quotes;
}

std::vector<StoredNiftyQuote> RoundTrip(
    const std::vector<StoredNiftyQuote>& quotes) {
  auto decoded = DecodeNiftyBatch(EncodeNiftyBatch(quotes));
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  return decoded.ok() ? *decoded : std::vector<StoredNiftyQuote>();
}

TEST(NiftyBatchCodec, RoundTripsAFullBatchOfATradingDay) {
  const auto quotes = NiftyDay(kMaxQuotesPerBatch, 1);
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(NiftyBatchCodec, RoundTripsOneQuote) {
  const auto quotes = NiftyDay(1, 2);
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(NiftyBatchCodec, KeepsADayChangeOtherThanThePayloads) {
  auto quotes = NiftyDay(8, 3);
  quotes[0].day_change_perc = 0.1 + 0.2;
  quotes[1].day_change_perc = -0.0;
  quotes[2].day_change_perc = std::numeric_limits<double>::quiet_NaN();
  quotes[3].day_change_perc = std::numeric_limits<double>::infinity();
  quotes[4].day_change_perc = std::numeric_limits<double>::denorm_min();
  // -0.0 in the payload, 0.0 beside it: the bits differ.
  v1::QuoteData data;
  data.mutable_payload()->set_day_change_perc(-0.0);
  quotes[5].quote.quote_data = data.SerializeAsString();
  quotes[5].day_change_perc = 0.0;
  const auto decoded = RoundTrip(quotes);
  ASSERT_EQ(decoded, quotes);
  EXPECT_TRUE(std::signbit(decoded[1].day_change_perc));
  EXPECT_TRUE(std::isnan(decoded[2].day_change_perc));
  EXPECT_FALSE(std::signbit(decoded[5].day_change_perc));
}

TEST(NiftyBatchCodec, KeepsPayloadsWithoutADayChangeAndOddPayloads) {
  auto quotes = NiftyDay(6, 4);
  v1::QuoteData failure;
  failure.set_status(v1::FAILURE);
  quotes[0].quote.quote_data = failure.SerializeAsString();
  quotes[0].day_change_perc = 0.42;
  quotes[1].quote.quote_data.clear();
  quotes[1].day_change_perc = -1.5;
  v1::QuoteData no_perc;
  no_perc.mutable_payload()->set_last_price(22000.5);
  quotes[2].quote.quote_data = no_perc.SerializeAsString();
  // Not the serializer's bytes (a non-minimal varint): kept whole.
  quotes[3].quote.quote_data = std::string("\x08\x81\x00", 3);
  quotes[4].quote.quote_data = std::string(30000, '\xff');
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(NiftyBatchCodec, KeepsNullsAbsentWritersAndExtremeCounters) {
  auto quotes = NiftyDay(5, 5);
  quotes[0].quote.last_price.reset();
  quotes[1].quote.volume = 12345.0;
  quotes[2].quote.written_by.reset();
  quotes[3].quote.seq = std::numeric_limits<int64_t>::max();
  quotes[3].quote.txid = std::numeric_limits<uint64_t>::max();
  quotes[4].quote.observed_at_us = std::numeric_limits<int64_t>::min();
  const auto decoded = RoundTrip(quotes);
  ASSERT_EQ(decoded, quotes);
  EXPECT_FALSE(decoded[0].quote.last_price.has_value());
  EXPECT_FALSE(decoded[2].quote.written_by.has_value());
}

TEST(NiftyBatchCodec, IsAFewBytesAQuoteOnATradingDay) {
  const auto quotes = NiftyDay(kMaxQuotesPerBatch, 6);
  size_t raw = 0;
  for (const auto& nifty : quotes) {
    raw += 8 * 7 + nifty.quote.quote_data.size();  // seven 8-byte columns
  }
  EXPECT_LT(EncodeNiftyBatch(quotes).size() * 5, raw);
}

TEST(NiftyBatchCodec, NeitherDecoderTakesTheOthersBatches) {
  const auto niftys = NiftyDay(10, 7);
  std::vector<StoredQuote> stocks;
  for (const auto& nifty : niftys) stocks.push_back(nifty.quote);
  auto as_nifty = DecodeNiftyBatch(EncodeQuoteBatch(stocks));
  ASSERT_EQ(as_nifty.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(as_nifty.status().message().find("version"), std::string::npos);
  auto as_stock = DecodeQuoteBatch(EncodeNiftyBatch(niftys));
  EXPECT_EQ(as_stock.status().code(), absl::StatusCode::kDataLoss);
}

TEST(NiftyBatchCodec, RejectsEmptyTruncatedAndCorruptBatches) {
  const std::string batch = EncodeNiftyBatch(NiftyDay(50, 8));
  EXPECT_EQ(DecodeNiftyBatch("").status().code(), absl::StatusCode::kDataLoss);
  for (size_t cut :
       {size_t{1}, size_t{2}, batch.size() / 2, batch.size() - 1}) {
    EXPECT_EQ(DecodeNiftyBatch(batch.substr(0, cut)).status().code(),
              absl::StatusCode::kDataLoss)
        << cut;
  }
  std::string corrupt = batch;
  for (size_t i = 4; i < corrupt.size(); i += 7) corrupt[i] ^= 0x5a;
  EXPECT_EQ(DecodeNiftyBatch(corrupt).status().code(),
            absl::StatusCode::kDataLoss);
  EXPECT_EQ(DecodeNiftyBatch(std::string("\x03\xff\xff\xff\xff\x0f", 6))
                .status()
                .code(),
            absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace mdc::domain
