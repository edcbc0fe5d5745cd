// The payload columns of the compacted batches (issue 32): exact decimal
// number columns, the payload's wire format taken apart and written back,
// and whole batches of real serialized QuoteData, random and adversarial,
// round-tripping byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "domain/column_codec.h"
#include "domain/exact_number_column.h"
#include "domain/quote_batch_codec.h"
#include "domain/quote_payload_wire.h"
#include "mdc/v1/market.pb.h"

namespace mdc::domain {
namespace {

uint64_t Bits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double FromBits(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

std::vector<double> NumbersRoundTrip(const std::vector<double>& values,
                                     size_t* encoded_size = nullptr) {
  columns::Writer out;
  columns::PutExactNumbers(values, out);
  if (encoded_size != nullptr) *encoded_size = out.out().size();
  columns::Reader in(out.out());
  std::vector<double> decoded = columns::GetExactNumbers(values.size(), in);
  EXPECT_FALSE(in.failed());
  EXPECT_TRUE(in.at_end());
  return decoded;
}

void ExpectSameBits(const std::vector<double>& decoded,
                    const std::vector<double>& values) {
  ASSERT_EQ(decoded.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(Bits(decoded[i]), Bits(values[i]))
        << "value " << i << ": " << values[i];
  }
}

std::vector<double> AdversarialNumbers() {
  return {0.0,
          -0.0,
          std::numeric_limits<double>::quiet_NaN(),
          FromBits(0x7ff0000000000001),  // a signalling NaN's bits
          FromBits(0xfff8000000000abc),  // a negative NaN with a payload
          std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::min(),
          std::numeric_limits<double>::max(),
          std::numeric_limits<double>::lowest(),
          0.1 + 0.2,
          1e15,
          -1e15,
          9007199254740992.0,  // 2^53
          9007199254740994.0,  // 2^53 + 2, beyond exact integers
          1e300,
          1e-300,
          1234.5678901234567,
          0.000000000000001,
          123456789.123456789,
          -0.05,
          1767152700123.0,
          3.141592653589793,
          2.5e-7,
          100.0,
          100.05};
}

TEST(ExactNumberColumn, KeepsAdversarialValuesBitForBit) {
  const auto values = AdversarialNumbers();
  ExpectSameBits(NumbersRoundTrip(values), values);
}

TEST(ExactNumberColumn, KeepsRandomBitPatternsAndRandomDecimals) {
  std::mt19937_64 random(42);
  std::vector<double> values;
  for (int i = 0; i < 2000; ++i) values.push_back(FromBits(random()));
  for (int i = 0; i < 2000; ++i) {
    const int scale = static_cast<int>(random() % 18);
    const auto mantissa = static_cast<int64_t>(random() % 2000000000000000ULL) -
                          1000000000000000LL;
    values.push_back(
        std::stod(std::to_string(mantissa) + "e-" + std::to_string(scale)));
  }
  ExpectSameBits(NumbersRoundTrip(values), values);
  // Shuffled so the column mixes scales and exceptions everywhere.
  std::shuffle(values.begin(), values.end(), random);
  ExpectSameBits(NumbersRoundTrip(values), values);
}

// One value read alone (the others passed over) is that value, bit for
// bit, at every place of a column mixing exceptions and decimals, and the
// reader ends where the column does.
TEST(ExactNumberColumn, ReadsOneValueAloneBitForBit) {
  std::vector<double> values = AdversarialNumbers();
  std::mt19937_64 random(7);
  for (int i = 0; i < 300; ++i) {
    values.push_back(static_cast<double>(random() % 100000) / 20);
  }
  std::shuffle(values.begin(), values.end(), random);
  columns::Writer out;
  columns::PutExactNumbers(values, out);
  for (size_t at = 0; at < values.size(); ++at) {
    columns::Reader in(out.out());
    const double value = columns::ExactNumberAt(values.size(), at, in);
    EXPECT_EQ(Bits(value), Bits(values[at])) << "value " << at;
    EXPECT_FALSE(in.failed());
    EXPECT_TRUE(in.at_end());
  }
}

TEST(ExactNumberColumn, KeepsEmptyAndSingleColumns) {
  ExpectSameBits(NumbersRoundTrip({}), {});
  ExpectSameBits(NumbersRoundTrip({-0.0}), {-0.0});
  ExpectSameBits(NumbersRoundTrip({1234.55}), {1234.55});
}

TEST(ExactNumberColumn, APriceWalkInTicksCostsAboutAByteAValue) {
  std::mt19937 random(7);
  std::vector<double> prices;
  double price = 1500.25;
  for (int i = 0; i < 1000; ++i) {
    price = std::round((price + 0.05 * static_cast<int>(random() % 5) - 0.1) *
                       100) /
            100;
    prices.push_back(price);
  }
  size_t size = 0;
  ExpectSameBits(NumbersRoundTrip(prices, &size), prices);
  EXPECT_LE(size, 1010u);  // scale, mode, flag, then a byte a step
}

TEST(ExactNumberColumn, RejectsBytesItNeverWrites) {
  columns::Reader bad_scale(std::string("\x10\x00\x00", 3));
  columns::GetExactNumbers(1, bad_scale);
  EXPECT_TRUE(bad_scale.failed());
  columns::Reader truncated(std::string("\x02\x00\x01", 3));
  columns::GetExactNumbers(3, truncated);
  EXPECT_TRUE(truncated.failed());
}

v1::QuoteData FullQuote(std::mt19937& random, double price) {
  v1::QuoteData data;
  data.set_status(v1::SUCCESS);
  v1::QuotePayload& payload = *data.mutable_payload();
  payload.set_last_price(price);
  payload.set_day_change(std::round((price - 1480.0) * 100) / 100);
  payload.set_day_change_perc(1.37);
  payload.set_volume(1000 + random() % 100000);
  payload.set_average_price(1490.33);
  payload.set_bid_quantity(1 + random() % 2000);
  payload.set_bid_price(price - 0.05);
  payload.set_upper_circuit_limit(1776.0);
  payload.set_lower_circuit_limit(1184.0);
  payload.set_implied_volatility(0);
  payload.set_market_cap(price * 1e7);
  payload.set_total_buy_quantity(100000 + random() % 50000);
  payload.set_last_trade_time(1767152700000.0 + random() % 1000);
  payload.mutable_ohlc()->set_open(1480.0);
  payload.mutable_ohlc()->set_high(1510.5);
  payload.mutable_ohlc()->set_low(1470.25);
  payload.mutable_ohlc()->set_close(1465.2);
  for (int level = 1; level <= 5; ++level) {
    auto* buy = payload.mutable_depth()->add_buy();
    buy->set_price(price - 0.05 * level);
    buy->set_quantity(1 + random() % 2000);
    auto* sell = payload.mutable_depth()->add_sell();
    sell->set_price(price + 0.05 * level);
    sell->set_quantity(1 + random() % 2000);
  }
  return data;
}

TEST(QuotePayloadWire, WritesBackWhatTheSerializerWrote) {
  std::mt19937 random(1);
  v1::QuoteData data = FullQuote(random, 1500.25);
  const std::string bytes = data.SerializeAsString();
  const auto fields = ParseQuoteDataWire(bytes);
  ASSERT_TRUE(fields.has_value());
  EXPECT_EQ(WriteQuoteDataWire(*fields), bytes);
  EXPECT_EQ(fields->buy.size(), 5u);
  EXPECT_EQ(*fields->numbers[kPayloadLastPrice], 1500.25);

  // A quote of every shape: no payload, an empty payload, a null-free
  // FAILURE, depth levels with one side or one half missing, -0.0.
  v1::QuoteData failure;
  failure.set_status(v1::FAILURE);
  v1::QuoteData empty_payload;
  empty_payload.mutable_payload();
  v1::QuoteData odd = data;
  odd.mutable_payload()->set_last_price(-0.0);
  odd.mutable_payload()->mutable_depth()->clear_sell();
  odd.mutable_payload()->mutable_depth()->mutable_buy(2)->clear_price();
  odd.mutable_payload()->mutable_depth()->add_buy();
  odd.mutable_payload()->mutable_ohlc()->clear_high();
  for (const v1::QuoteData& quote :
       {failure, empty_payload, odd, v1::QuoteData()}) {
    const std::string serialized = quote.SerializeAsString();
    const auto parsed = ParseQuoteDataWire(serialized);
    ASSERT_TRUE(parsed.has_value()) << quote.DebugString();
    EXPECT_EQ(WriteQuoteDataWire(*parsed), serialized);
  }
}

TEST(QuotePayloadWire, LeavesWholeWhatItCannotWriteBack) {
  std::mt19937 random(2);
  const std::string bytes = FullQuote(random, 99.95).SerializeAsString();
  // An unknown field (number 9, a varint) after the payload.
  EXPECT_FALSE(ParseQuoteDataWire(bytes + std::string("\x48\x01", 2)));
  // The payload before the status: valid protobuf, another order.
  v1::QuoteData status_only;
  status_only.set_status(v1::SUCCESS);
  const std::string status = status_only.SerializeAsString();
  EXPECT_FALSE(ParseQuoteDataWire(bytes.substr(status.size()) + status));
  // The status written twice; a non-minimal varint status.
  EXPECT_FALSE(ParseQuoteDataWire(status + status));
  EXPECT_FALSE(ParseQuoteDataWire(std::string("\x08\x81\x00", 3)));
  // Truncated, and not protobuf at all.
  EXPECT_FALSE(ParseQuoteDataWire(bytes.substr(0, bytes.size() - 3)));
  EXPECT_FALSE(ParseQuoteDataWire("payload-1500.25"));
}

StoredQuote Stored(int i, const std::string& quote_data,
                   std::optional<double> last_price,
                   std::optional<double> volume) {
  StoredQuote quote;
  quote.observed_at_us = int64_t{1767152700} * 1000000 + int64_t{i} * 1000000;
  quote.last_price = last_price;
  quote.volume = volume;
  quote.quote_data = quote_data;
  quote.written_by = 3;
  quote.written_at_us = quote.observed_at_us + 2000 + i % 7;
  quote.seq = 1000 + 2 * i;
  quote.txid = 5000 + static_cast<uint64_t>(i / 10);
  return quote;
}

// A batch of full quotes with odd numbers in every kind of column, rows
// whose prices are not the payload's, and payloads left whole (residuals).
std::vector<StoredQuote> OddFullQuotes() {
  std::mt19937 random(3);
  std::vector<StoredQuote> quotes;
  const auto odd_numbers = AdversarialNumbers();
  double price = 1500.25;
  for (int i = 0; i < kMaxQuotesPerBatch; ++i) {
    price = std::round((price + 0.05 * static_cast<int>(random() % 5) - 0.1) *
                       100) /
            100;
    v1::QuoteData data = FullQuote(random, price);
    auto& payload = *data.mutable_payload();
    // Every tenth quote carries odd numbers in every kind of column.
    if (i % 10 == 3) {
      const double odd = odd_numbers[(i / 10) % odd_numbers.size()];
      payload.set_average_price(odd);
      payload.mutable_ohlc()->set_low(odd);
      payload.mutable_depth()->mutable_sell(4)->set_quantity(odd);
      payload.set_week_52_high(1e15 - 0.125);
    }
    if (i % 17 == 5) payload.clear_depth();
    if (i % 19 == 7) payload.mutable_depth()->add_sell()->set_price(price);
    std::string bytes = data.SerializeAsString();
    std::optional<double> row_price = payload.last_price();
    std::optional<double> row_volume = payload.volume();
    if (i % 23 == 0) row_price = price + 1;                // not the payload's
    if (i % 29 == 0) row_volume.reset();                   // NULL in the row
    if (i % 31 == 0) bytes += std::string("\x48\x07", 2);  // unknown field
    if (i % 37 == 0) bytes = std::string("\x00\xff", 2);   // not protobuf
    if (i % 41 == 0) bytes.clear();
    quotes.push_back(Stored(i, bytes, row_price, row_volume));
  }
  return quotes;
}

TEST(QuoteBatchCodec, RoundTripsFullQuotesWithOddNumbersAndResiduals) {
  const std::vector<StoredQuote> quotes = OddFullQuotes();
  const auto decoded = DecodeQuoteBatch(EncodeQuoteBatch(quotes));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), quotes.size());
  for (size_t i = 0; i < quotes.size(); ++i) {
    EXPECT_EQ((*decoded)[i], quotes[i]) << "quote " << i;
  }
}

// What a decode of prices promises of a quote: its instant and two prices.
StoredQuote PricesOf(const StoredQuote& quote) {
  StoredQuote prices;
  prices.observed_at_us = quote.observed_at_us;
  prices.last_price = quote.last_price;
  prices.volume = quote.volume;
  return prices;
}

std::vector<StoredQuote> PricesOf(const std::vector<StoredQuote>& quotes) {
  std::vector<StoredQuote> prices;
  for (const StoredQuote& quote : quotes) prices.push_back(PricesOf(quote));
  return prices;
}

// The decode for candles and charts gives the instants and prices exactly
// as the whole decode does, whatever the payloads hold.
TEST(QuoteBatchCodec, ThePricesDecodeGivesTheWholeOnesInstantsAndPrices) {
  const std::vector<StoredQuote> quotes = OddFullQuotes();
  const auto prices =
      DecodeQuoteBatch(EncodeQuoteBatch(quotes), QuoteBatchParts::kPrices);
  ASSERT_TRUE(prices.ok()) << prices.status();
  ASSERT_EQ(prices->size(), quotes.size());
  for (size_t i = 0; i < quotes.size(); ++i) {
    EXPECT_EQ(PricesOf((*prices)[i]), PricesOf(quotes[i])) << "quote " << i;
  }
}

// One quote of a batch decoded alone is that quote of the whole decode,
// for every quote of a batch with odd numbers in every kind of column,
// residual payloads, rows whose prices are not the payload's, and depth
// of varying levels.
TEST(QuoteBatchCodec, DecodesEachQuoteAloneAsTheWholeDecodeDoes) {
  const std::vector<StoredQuote> quotes = OddFullQuotes();
  const std::string batch = EncodeQuoteBatch(quotes);
  const auto prices = DecodeQuoteBatch(batch, QuoteBatchParts::kPrices);
  ASSERT_TRUE(prices.ok()) << prices.status();
  for (size_t at = 0; at < quotes.size(); ++at) {
    const auto quote = DecodeQuoteAt(batch, *prices, at);
    ASSERT_TRUE(quote.ok()) << at << " " << quote.status();
    EXPECT_EQ(*quote, quotes[at]) << "quote " << at;
  }
  const auto beyond = DecodeQuoteAt(batch, *prices, quotes.size());
  EXPECT_EQ(beyond.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_FALSE(
      DecodeQuoteAt(batch.substr(0, batch.size() - 3), *prices, 5).ok());
}

// The current layout: version, the prices' raw and frame sizes, the rest's
// raw size (varints), the prices frame, the rest's frame.
size_t VarintAt(const std::string& bytes, size_t& at) {
  size_t value = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<unsigned char>(bytes.at(at++));
    value |= static_cast<size_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
}

TEST(QuoteBatchCodec, ThePricesDecodeReadsAndChecksThePricesFrameAlone) {
  const std::vector<StoredQuote> quotes = OddFullQuotes();
  const std::string batch = EncodeQuoteBatch(quotes);
  size_t at = 1;
  VarintAt(batch, at);  // the prices' raw size
  const size_t prices_frame = VarintAt(batch, at);
  VarintAt(batch, at);  // the rest's raw size
  const size_t rest_starts = at + prices_frame;
  ASSERT_LT(rest_starts, batch.size());
  // Cut or damaged anywhere up to the end of the prices frame: both
  // decodes fail (the frame's checksum, or its columns).
  for (size_t cut = 1; cut < rest_starts; cut += 7) {
    EXPECT_FALSE(
        DecodeQuoteBatch(batch.substr(0, cut), QuoteBatchParts::kPrices).ok())
        << cut;
  }
  for (size_t flip = at; flip < rest_starts; flip += 5) {
    std::string damaged = batch;
    damaged[flip] ^= 0x10;
    EXPECT_FALSE(DecodeQuoteBatch(damaged, QuoteBatchParts::kPrices).ok())
        << flip;
    EXPECT_FALSE(DecodeQuoteBatch(damaged).ok()) << flip;
  }
  // Damage in the rest: the whole decode fails; the prices, which do not
  // depend on it, are still read right.
  for (size_t flip = rest_starts; flip < batch.size(); flip += 97) {
    std::string damaged = batch;
    damaged[flip] ^= 0x10;
    EXPECT_FALSE(DecodeQuoteBatch(damaged).ok()) << flip;
    const auto prices = DecodeQuoteBatch(damaged, QuoteBatchParts::kPrices);
    ASSERT_TRUE(prices.ok()) << flip << " " << prices.status();
    EXPECT_EQ(PricesOf(*prices), PricesOf(quotes)) << flip;
  }
}

// The bench's full quote (bench/compact/main.go): every payload number,
// five depth levels a side around a price walking in ticks, random
// quantities. The codec alone must leave room under the 67 bytes a
// quote on disk (the batch row, its index and TOAST add a few).
TEST(QuoteBatchCodec, AFullQuoteOfATradingDayEncodesUnder60Bytes) {
  std::mt19937 random(4);
  std::vector<StoredQuote> quotes;
  double price = 812.4;
  double volume = 0;
  for (int i = 0; i < kMaxQuotesPerBatch; ++i) {
    price = std::round((price + 0.05 * static_cast<int>(random() % 5) - 0.1) *
                       100) /
            100;
    volume += random() % 501;
    v1::QuoteData data = FullQuote(random, price);
    data.mutable_payload()->set_volume(volume);
    const std::string bytes = data.SerializeAsString();
    quotes.push_back(Stored(i, bytes, price, volume));
  }
  const std::string batch = EncodeQuoteBatch(quotes);
  EXPECT_LT(batch.size(), 60u * quotes.size());
  const auto decoded = DecodeQuoteBatch(batch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, quotes);
}

// A batch the first layout (format version 1, payloads whole) wrote, before
// the payload columns: it stays readable.
TEST(QuoteBatchCodec, ReadsBatchesOfTheFirstLayout) {
  const std::string version_1(
      "\x01\x81\x01\x28\xb5\x2f\xfd\x20\x81\xdd\x02\x00\x34\x04\x03\x80\x9c"
      "\x94\xcf\xe9\xcd\xa3\x06\xff\x92\x9a\xce\x00\xb8\xb3\xb7\xaa\x50\x02"
      "\x02\x88\x0e\x02\x02\x03\x0e\x00\x07\x00\x33\x55\x20\x03\x05\x59\x00"
      "\x00\x40\x00\x00\x05\x00\x40\xa0\x8f\x00\x40\x00\x0d\x0d\x0d\x08\x01"
      "\x12\x09\x09\x61\x62\x63\x63\x63\x63\x63\x63\x63\x63\x09\x00\x40\x00"
      "\x2e\x0f\x66\x0b\x80\xab\x38\x6d\xd6\x71\x05\x32\xa6\x39\xc3\x82\xf2"
      "\x05",
      103);
  const auto decoded = DecodeQuoteBatch(version_1);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const StoredQuote& quote = (*decoded)[i];
    EXPECT_EQ(quote.observed_at_us, 1767152700000000 + i * 1000000);
    EXPECT_EQ(*quote.last_price, 100.5 + i * 0.05);
    EXPECT_EQ(quote.volume.has_value(), i != 1);
    EXPECT_EQ(quote.quote_data, std::string("\x08\x01\x12\x09\x09", 5) +
                                    std::string(8, static_cast<char>('a' + i)));
    EXPECT_EQ(quote.written_by.has_value(), i != 2);
    EXPECT_EQ(quote.written_at_us, quote.observed_at_us + 1500);
    EXPECT_EQ(quote.seq, 40 + i);
    EXPECT_EQ(quote.txid, 900u + i);
  }
  // Its prices alone.
  const auto prices = DecodeQuoteBatch(version_1, QuoteBatchParts::kPrices);
  ASSERT_TRUE(prices.ok()) << prices.status();
  EXPECT_EQ(PricesOf(*prices), PricesOf(*decoded));
}

// A batch the second layout (format version 2: a column per payload field,
// one zstd frame) wrote before the prices got a frame of their own, of
// three quotes: a payload that came apart with ohlc and depth, one that
// did not (not protobuf) and a row whose price is not its payload's. It
// stays readable, whole and as prices.
TEST(QuoteBatchCodec, ReadsBatchesOfTheSecondLayout) {
  const std::string version_2(
      "\x02\xe4\x01\x28\xb5\x2f\xfd\x20\xe4\xc5\x03\x00\x84\x05\x03\x80"
      "\x9c\x94\xcf\xe9\xcd\xa3\x06\xff\x92\x9a\xce\x00\xb8\xb3\xb7\xaa"
      "\x50\x02\x02\x88\x0e\x02\x02\x03\x0e\x00\x05\x02\x00\xff\x03\x02"
      "\x00\x03\x03\x01\x00\x00\xda\x0f\x02\x00\x00\x00\x00\x01\x02\x00"
      "\x00\x32\x03\x00\x00\x00\xd0\x0f\x90\x03\x01\x01\x00\x00\x00\xc8"
      "\x01\xc6\x0f\x01\x02\xfa\x9c\x00\x14\x8e\x9d\x01\x06\x33\x23\x63"
      "\x59\x00\x40\x00\x05\x00\x0c\x00\xb8\x1a\x47\x1d\x86\xd9\x38\x66"
      "\xf1\x8e\x97\x64\x16\xc0\xf0\x6b\x9d\x43\x20\xb0\x0a\x70\x8d\x26"
      "\xba\xb3\xca\x17",
      132);
  QuoteDataFields apart;
  apart.status = 1;
  apart.has_payload = true;
  apart.numbers[kPayloadLastPrice] = 100.5;
  apart.numbers[2] = 0.25;
  apart.numbers[kPayloadVolume] = 1000;
  apart.has_ohlc = true;
  apart.ohlc[0] = 100;
  apart.ohlc[3] = 99.5;
  apart.has_depth = true;
  apart.buy.push_back({100.45, 10});
  apart.sell.push_back({100.55, std::nullopt});
  QuoteDataFields other_price;
  other_price.status = 1;
  other_price.has_payload = true;
  other_price.numbers[kPayloadLastPrice] = 100.6;
  other_price.numbers[kPayloadVolume] = 1200;
  std::vector<StoredQuote> want(3);
  want[0].quote_data = WriteQuoteDataWire(apart);
  want[0].last_price = 100.5;
  want[0].volume = 1000;
  want[0].written_by = 7;
  want[1].quote_data = std::string("\x00\xff", 2);
  want[1].last_price = 100.55;
  want[1].written_by = 7;
  want[2].quote_data = WriteQuoteDataWire(other_price);
  want[2].last_price = 101;
  want[2].volume = 1200;
  for (int i = 0; i < 3; ++i) {
    want[i].observed_at_us = 1767152700000000 + i * 1000000;
    want[i].written_at_us = want[i].observed_at_us + 1500;
    want[i].seq = 40 + i;
    want[i].txid = 900 + static_cast<uint64_t>(i);
  }
  const auto decoded = DecodeQuoteBatch(version_2);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, want);
  const auto prices = DecodeQuoteBatch(version_2, QuoteBatchParts::kPrices);
  ASSERT_TRUE(prices.ok()) << prices.status();
  EXPECT_EQ(PricesOf(*prices), PricesOf(want));
  for (size_t at = 0; at < want.size(); ++at) {
    const auto quote = DecodeQuoteAt(version_2, *prices, at);
    ASSERT_TRUE(quote.ok()) << quote.status();
    EXPECT_EQ(*quote, want[at]);
  }
  // Written again, it takes the current layout and reads the same.
  const std::string again = EncodeQuoteBatch(*decoded);
  EXPECT_NE(again[0], version_2[0]);
  const auto reread = DecodeQuoteBatch(again);
  ASSERT_TRUE(reread.ok()) << reread.status();
  EXPECT_EQ(*reread, want);
  const auto again_prices = DecodeQuoteBatch(again, QuoteBatchParts::kPrices);
  ASSERT_TRUE(again_prices.ok()) << again_prices.status();
  for (size_t at = 0; at < want.size(); ++at) {
    const auto quote = DecodeQuoteAt(again, *again_prices, at);
    ASSERT_TRUE(quote.ok()) << quote.status();
    EXPECT_EQ(*quote, want[at]);
  }
}

}  // namespace
}  // namespace mdc::domain
