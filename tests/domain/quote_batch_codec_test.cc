#include "domain/quote_batch_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace mdc::domain {
namespace {

// A day of one symbol shaped like the market: a quote a second, the price a
// random walk, the volume rising, a payload that changes a little.
std::vector<StoredQuote> TradingDayQuotes(int count, uint32_t seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> step(0.0, 0.05);
  std::vector<StoredQuote> quotes;
  double price = 1500.25;
  double volume = 1000;
  const int64_t open_us = int64_t{1767152700} * 1000000;  // 09:15 IST
  for (int i = 0; i < count; ++i) {
    price = std::round((price + step(random)) * 20) / 20;
    volume += random() % 500;
    StoredQuote quote;
    quote.observed_at_us = open_us + int64_t{i} * 1000000;
    quote.last_price = price;
    quote.volume = volume;
    quote.quote_data =
        "payload-" + std::to_string(price) + "-" + std::to_string(volume);
    quote.written_by = 7;
    quote.written_at_us = quote.observed_at_us + 1234 + random() % 900;
    quote.seq = 500000 + i * 3 + static_cast<int64_t>(random() % 3);
    quote.txid = 90000 + static_cast<uint64_t>(i);
    quotes.push_back(quote);
  }
  return quotes;
}

std::vector<StoredQuote> RoundTrip(const std::vector<StoredQuote>& quotes) {
  auto decoded = DecodeQuoteBatch(EncodeQuoteBatch(quotes));
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  return decoded.ok() ? *decoded : std::vector<StoredQuote>();
}

TEST(QuoteBatchCodec, RoundTripsAFullBatchOfATradingDay) {
  const auto quotes = TradingDayQuotes(kMaxQuotesPerBatch, 1);
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(QuoteBatchCodec, RoundTripsOneQuote) {
  const auto quotes = TradingDayQuotes(1, 2);
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(QuoteBatchCodec, KeepsNullsAndAbsentWriters) {
  auto quotes = TradingDayQuotes(20, 3);
  quotes[0].last_price.reset();
  quotes[5].volume.reset();
  quotes[6].last_price.reset();
  quotes[6].volume.reset();
  quotes[7].written_by.reset();
  quotes[19].written_by.reset();
  quotes[19].quote_data.clear();
  const auto decoded = RoundTrip(quotes);
  EXPECT_EQ(decoded, quotes);
  EXPECT_FALSE(decoded[0].last_price.has_value());
  EXPECT_FALSE(decoded[7].written_by.has_value());
}

TEST(QuoteBatchCodec, KeepsEveryFloatBitForBit) {
  auto quotes = TradingDayQuotes(6, 4);
  quotes[0].last_price = -0.0;
  quotes[1].last_price = std::numeric_limits<double>::denorm_min();
  quotes[2].last_price = std::numeric_limits<double>::max();
  quotes[3].last_price = std::numeric_limits<double>::quiet_NaN();
  quotes[4].volume = std::numeric_limits<double>::infinity();
  quotes[5].volume = 0.1 + 0.2;
  const auto decoded = RoundTrip(quotes);
  ASSERT_EQ(decoded, quotes);
  EXPECT_TRUE(std::signbit(*decoded[0].last_price));
  EXPECT_TRUE(std::isnan(*decoded[3].last_price));
}

TEST(QuoteBatchCodec, KeepsExtremeInstantsCountersAndAnyOrder) {
  auto quotes = TradingDayQuotes(5, 5);
  quotes[0].observed_at_us = std::numeric_limits<int64_t>::min();
  quotes[1].observed_at_us = std::numeric_limits<int64_t>::max();
  quotes[2].observed_at_us = -1;  // before the epoch, out of order
  quotes[3].seq = std::numeric_limits<int64_t>::max();
  quotes[4].seq = 1;
  quotes[2].txid = std::numeric_limits<uint64_t>::max();
  quotes[3].written_by = std::numeric_limits<int64_t>::min();
  quotes[4].written_at_us = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(QuoteBatchCodec, KeepsLargeBinaryPayloads) {
  auto quotes = TradingDayQuotes(3, 6);
  quotes[1].quote_data = std::string(40000, '\0');
  quotes[2].quote_data = std::string("\x00\xff\x80\x7f", 4);
  EXPECT_EQ(RoundTrip(quotes), quotes);
}

TEST(QuoteBatchCodec, IsSmallerThanTheRawColumnsOfATradingDay) {
  const auto quotes = TradingDayQuotes(kMaxQuotesPerBatch, 7);
  size_t raw = 0;
  for (const auto& quote : quotes) {
    raw += 8 * 6 + quote.quote_data.size();  // six 8-byte columns
  }
  // A tenth is the goal on disk; the codec alone must do at least
  // a fifth of the raw column bytes on this synthetic day.
  EXPECT_LT(EncodeQuoteBatch(quotes).size() * 5, raw);
}

TEST(QuoteBatchCodec, RejectsAnUnknownVersion) {
  std::string batch = EncodeQuoteBatch(TradingDayQuotes(3, 8));
  batch[0] = 9;
  auto decoded = DecodeQuoteBatch(batch);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(decoded.status().message().find("version"), std::string::npos);
}

TEST(QuoteBatchCodec, RejectsEmptyAndTruncatedAndCorruptBatches) {
  const std::string batch = EncodeQuoteBatch(TradingDayQuotes(50, 9));
  EXPECT_FALSE(DecodeQuoteBatch("").ok());
  for (size_t cut :
       {size_t{1}, size_t{2}, batch.size() / 2, batch.size() - 1}) {
    EXPECT_FALSE(DecodeQuoteBatch(batch.substr(0, cut)).ok()) << cut;
  }
  std::string corrupt = batch;
  for (size_t i = 4; i < corrupt.size(); i += 7) corrupt[i] ^= 0x5a;
  EXPECT_FALSE(DecodeQuoteBatch(corrupt).ok());
  // A header promising more bytes than any batch holds.
  EXPECT_FALSE(
      DecodeQuoteBatch(std::string("\x01\xff\xff\xff\xff\x0f", 6)).ok());
}

}  // namespace
}  // namespace mdc::domain
