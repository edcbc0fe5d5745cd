#include "domain/quote_batch_codec.h"

#include <zstd.h>

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/column_codec.h"
#include "domain/exact_number_column.h"
#include "domain/quote_payload_wire.h"

namespace mdc::domain {
namespace {

using columns::CountPresent;
using columns::DoubleBits;
using columns::GetDelta;
using columns::GetDeltaOfDelta;
using columns::GetExactNumbers;
using columns::GetFloats;
using columns::GetPresence;
using columns::PutDelta;
using columns::PutDeltaOfDelta;
using columns::PutExactNumbers;
using columns::PutFloats;
using columns::PutPresence;
using columns::Reader;
using columns::Writer;

// The first byte of every batch: its layout. Version 1 kept the payload as
// one column of whole protobufs; version 2 (written since) has a column per
// payload field. The decoder reads both, so batches written before stay
// readable; a later compaction of their day re-encodes them.
constexpr char kPayloadWholeVersion = 1;
constexpr char kPayloadColumnsVersion = 2;
// zstd's level: 3 (its default) compresses a day of quotes at well over the
// compaction's 50,000 quotes/s on one core; higher levels cost more CPU than
// the bytes they save are worth (docs/performance.md, "Compacted history").
constexpr int kZstdLevel = 3;
// A decoded batch is never larger: 1,000 quotes of well under 64 KiB each.
constexpr uint64_t kMaxRawBytes = uint64_t{64} << 20;
// More depth levels than any book has; a larger count is a corrupt batch.
constexpr uint64_t kMaxDepthLevels = 1000;

// ---- Optional numbers: a presence bitmap, then the present values as an
// exact number column.
void PutOptionalNumbers(const std::vector<std::optional<double>>& values,
                        Writer& out) {
  std::vector<bool> present;
  std::vector<double> present_values;
  present.reserve(values.size());
  for (const auto& value : values) {
    present.push_back(value.has_value());
    if (value) present_values.push_back(*value);
  }
  PutPresence(present, out);
  PutExactNumbers(present_values, out);
}

std::vector<std::optional<double>> GetOptionalNumbers(size_t count,
                                                      Reader& in) {
  const std::vector<bool> present = GetPresence(count, in);
  const std::vector<double> values = GetExactNumbers(CountPresent(present), in);
  std::vector<std::optional<double>> out(count);
  size_t next = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (present[i]) out[i] = values[next++];
  }
  return out;
}

// ---- Depth: the level counts of each side, then for each level index the
// price and quantity columns of the quotes that have that level.
void PutDepthSide(
    const std::vector<const std::vector<DepthLevelFields>*>& sides,
    Writer& out) {
  std::vector<int64_t> counts;
  size_t deepest = 0;
  for (const auto* side : sides) {
    counts.push_back(static_cast<int64_t>(side->size()));
    deepest = std::max(deepest, side->size());
  }
  PutDelta(counts, out);
  for (size_t level = 0; level < deepest; ++level) {
    std::vector<std::optional<double>> prices, quantities;
    for (const auto* side : sides) {
      if (side->size() <= level) continue;
      prices.push_back((*side)[level].price);
      quantities.push_back((*side)[level].quantity);
    }
    PutOptionalNumbers(prices, out);
    PutOptionalNumbers(quantities, out);
  }
}

void GetDepthSide(std::vector<std::vector<DepthLevelFields>*>& sides,
                  Reader& in) {
  const std::vector<int64_t> counts = GetDelta(sides.size(), in);
  uint64_t deepest = 0;
  for (int64_t count : counts) {
    if (count < 0 || static_cast<uint64_t>(count) > kMaxDepthLevels) {
      in.Corrupt();
      return;
    }
    deepest = std::max(deepest, static_cast<uint64_t>(count));
  }
  for (size_t i = 0; i < sides.size(); ++i) sides[i]->resize(counts[i]);
  for (size_t level = 0; level < deepest && !in.failed(); ++level) {
    std::vector<DepthLevelFields*> levels;
    for (auto* side : sides) {
      if (side->size() > level) levels.push_back(&(*side)[level]);
    }
    const auto prices = GetOptionalNumbers(levels.size(), in);
    const auto quantities = GetOptionalNumbers(levels.size(), in);
    for (size_t i = 0; i < levels.size() && !in.failed(); ++i) {
      levels[i]->price = prices[i];
      levels[i]->quantity = quantities[i];
    }
  }
}

// ---- The payload columns of the quotes whose payload came apart into its
// fields (`all`); the others are in the residual column.
void PutPayloadColumns(const std::vector<QuoteDataFields>& all, Writer& out) {
  std::vector<bool> has_status, has_payload;
  std::vector<int64_t> statuses;
  std::vector<const QuoteDataFields*> payloads;
  for (const auto& fields : all) {
    has_status.push_back(fields.status.has_value());
    if (fields.status) statuses.push_back(static_cast<int64_t>(*fields.status));
    has_payload.push_back(fields.has_payload);
    if (fields.has_payload) payloads.push_back(&fields);
  }
  PutPresence(has_status, out);
  PutDelta(statuses, out);
  PutPresence(has_payload, out);
  for (int field = 0; field < kPayloadNumberFields; ++field) {
    std::vector<std::optional<double>> values;
    for (const auto* payload : payloads)
      values.push_back(payload->numbers[field]);
    PutOptionalNumbers(values, out);
  }
  std::vector<bool> has_ohlc, has_depth;
  std::vector<const QuoteDataFields*> ohlcs;
  std::vector<const std::vector<DepthLevelFields>*> buys, sells;
  for (const auto* payload : payloads) {
    has_ohlc.push_back(payload->has_ohlc);
    if (payload->has_ohlc) ohlcs.push_back(payload);
    has_depth.push_back(payload->has_depth);
    if (payload->has_depth) {
      buys.push_back(&payload->buy);
      sells.push_back(&payload->sell);
    }
  }
  PutPresence(has_ohlc, out);
  for (int field = 0; field < 4; ++field) {
    std::vector<std::optional<double>> values;
    for (const auto* ohlc : ohlcs) values.push_back(ohlc->ohlc[field]);
    PutOptionalNumbers(values, out);
  }
  PutPresence(has_depth, out);
  PutDepthSide(buys, out);
  PutDepthSide(sells, out);
}

std::vector<QuoteDataFields> GetPayloadColumns(size_t count, Reader& in) {
  std::vector<QuoteDataFields> all(count);
  const std::vector<bool> has_status = GetPresence(count, in);
  const std::vector<int64_t> statuses = GetDelta(CountPresent(has_status), in);
  const std::vector<bool> has_payload = GetPresence(count, in);
  std::vector<QuoteDataFields*> payloads;
  size_t next_status = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (has_status[i])
      all[i].status = static_cast<uint64_t>(statuses[next_status++]);
    all[i].has_payload = has_payload[i];
    if (has_payload[i]) payloads.push_back(&all[i]);
  }
  for (int field = 0; field < kPayloadNumberFields && !in.failed(); ++field) {
    const auto values = GetOptionalNumbers(payloads.size(), in);
    for (size_t i = 0; i < payloads.size() && !in.failed(); ++i) {
      payloads[i]->numbers[field] = values[i];
    }
  }
  const std::vector<bool> has_ohlc = GetPresence(payloads.size(), in);
  std::vector<QuoteDataFields*> ohlcs;
  for (size_t i = 0; i < payloads.size() && !in.failed(); ++i) {
    payloads[i]->has_ohlc = has_ohlc[i];
    if (has_ohlc[i]) ohlcs.push_back(payloads[i]);
  }
  for (int field = 0; field < 4 && !in.failed(); ++field) {
    const auto values = GetOptionalNumbers(ohlcs.size(), in);
    for (size_t i = 0; i < ohlcs.size() && !in.failed(); ++i) {
      ohlcs[i]->ohlc[field] = values[i];
    }
  }
  const std::vector<bool> has_depth = GetPresence(payloads.size(), in);
  std::vector<std::vector<DepthLevelFields>*> buys, sells;
  for (size_t i = 0; i < payloads.size() && !in.failed(); ++i) {
    payloads[i]->has_depth = has_depth[i];
    if (has_depth[i]) {
      buys.push_back(&payloads[i]->buy);
      sells.push_back(&payloads[i]->sell);
    }
  }
  if (!in.failed()) GetDepthSide(buys, in);
  if (!in.failed()) GetDepthSide(sells, in);
  return all;
}

// ---- The row's own last_price and volume copy the payload's (the write
// takes them from it): a bitmap says which do, the rest are stored as XORed
// floats.
void PutRowNumber(const std::vector<std::optional<double>>& row,
                  const std::vector<std::optional<double>>& payload,
                  Writer& out) {
  std::vector<bool> copied;
  std::vector<std::optional<double>> rest;
  for (size_t i = 0; i < row.size(); ++i) {
    const bool same =
        row[i] && payload[i] && DoubleBits(*row[i]) == DoubleBits(*payload[i]);
    copied.push_back(same);
    rest.push_back(same ? std::nullopt : row[i]);
  }
  PutPresence(copied, out);
  PutFloats(rest, out);
}

std::vector<std::optional<double>> GetRowNumber(
    const std::vector<std::optional<double>>& payload, Reader& in) {
  const std::vector<bool> copied = GetPresence(payload.size(), in);
  std::vector<std::optional<double>> values = GetFloats(payload.size(), in);
  for (size_t i = 0; i < payload.size() && !in.failed(); ++i) {
    if (!copied[i]) continue;
    if (!payload[i] || values[i]) {
      in.Corrupt();
      break;
    }
    values[i] = payload[i];
  }
  return values;
}

// The columns every layout shares: times, stream order and writer.
struct RowColumns {
  std::vector<int64_t> observed, written_at, seq, txid, writers;
  std::vector<bool> has_writer;
};

void PutRowColumns(const std::vector<StoredQuote>& quotes, Writer& raw) {
  RowColumns c;
  for (const StoredQuote& quote : quotes) {
    c.observed.push_back(quote.observed_at_us);
    c.written_at.push_back(quote.written_at_us);
    c.seq.push_back(quote.seq);
    c.txid.push_back(static_cast<int64_t>(quote.txid));
    c.has_writer.push_back(quote.written_by.has_value());
    if (quote.written_by) c.writers.push_back(*quote.written_by);
  }
  PutDeltaOfDelta(c.observed, raw);
  PutDeltaOfDelta(c.written_at, raw);
  PutDelta(c.seq, raw);
  PutDelta(c.txid, raw);
  PutPresence(c.has_writer, raw);
  PutDelta(c.writers, raw);
}

std::vector<StoredQuote> GetRowColumns(size_t count, Reader& in) {
  const std::vector<int64_t> observed = GetDeltaOfDelta(count, in);
  const std::vector<int64_t> written_at = GetDeltaOfDelta(count, in);
  const std::vector<int64_t> seq = GetDelta(count, in);
  const std::vector<int64_t> txid = GetDelta(count, in);
  const std::vector<bool> has_writer = GetPresence(count, in);
  const std::vector<int64_t> writers = GetDelta(CountPresent(has_writer), in);
  std::vector<StoredQuote> quotes(count);
  size_t next_writer = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    StoredQuote& quote = quotes[i];
    quote.observed_at_us = observed[i];
    quote.written_at_us = written_at[i];
    quote.seq = seq[i];
    quote.txid = static_cast<uint64_t>(txid[i]);
    if (has_writer[i]) quote.written_by = writers[next_writer++];
  }
  return quotes;
}

// Version 1: the row columns, the two prices as XORed floats, the payloads
// whole (every length, then every payload).
void DecodeWholePayloads(Reader& in, std::vector<StoredQuote>& quotes) {
  const size_t count = quotes.size();
  const auto prices = GetFloats(count, in);
  const auto volumes = GetFloats(count, in);
  std::vector<uint64_t> sizes(count);
  for (uint64_t& size : sizes) size = in.Varint();
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    quotes[i].last_price = prices[i];
    quotes[i].volume = volumes[i];
    quotes[i].quote_data = std::string(in.Bytes(sizes[i]));
  }
}

// Version 2: which payloads came apart; the residual payloads whole; the
// payload columns; the row's two numbers against the payload's.
void EncodePayloadColumns(const std::vector<StoredQuote>& quotes, Writer& raw) {
  std::vector<bool> structured;
  std::vector<QuoteDataFields> fields;
  std::vector<const std::string*> residual;
  std::vector<std::optional<double>> payload_prices, payload_volumes;
  for (const StoredQuote& quote : quotes) {
    std::optional<QuoteDataFields> parsed =
        ParseQuoteDataWire(quote.quote_data);
    structured.push_back(parsed.has_value());
    if (parsed && parsed->has_payload) {
      payload_prices.push_back(parsed->numbers[kPayloadLastPrice]);
      payload_volumes.push_back(parsed->numbers[kPayloadVolume]);
    } else {
      payload_prices.emplace_back();
      payload_volumes.emplace_back();
    }
    if (parsed) {
      fields.push_back(std::move(*parsed));
    } else {
      residual.push_back(&quote.quote_data);
    }
  }
  PutPresence(structured, raw);
  for (const std::string* payload : residual) raw.Varint(payload->size());
  for (const std::string* payload : residual) raw.Bytes(*payload);
  PutPayloadColumns(fields, raw);
  std::vector<std::optional<double>> prices, volumes;
  for (const StoredQuote& quote : quotes) {
    prices.push_back(quote.last_price);
    volumes.push_back(quote.volume);
  }
  PutRowNumber(prices, payload_prices, raw);
  PutRowNumber(volumes, payload_volumes, raw);
}

void DecodePayloadColumns(Reader& in, std::vector<StoredQuote>& quotes) {
  const size_t count = quotes.size();
  const std::vector<bool> structured = GetPresence(count, in);
  const size_t structured_count = CountPresent(structured);
  std::vector<uint64_t> residual_sizes(count - structured_count);
  for (uint64_t& size : residual_sizes) size = in.Varint();
  size_t next_residual = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (structured[i]) continue;
    quotes[i].quote_data =
        std::string(in.Bytes(residual_sizes[next_residual++]));
  }
  std::vector<QuoteDataFields> fields = GetPayloadColumns(structured_count, in);
  std::vector<std::optional<double>> payload_prices(count),
      payload_volumes(count);
  size_t next_fields = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (!structured[i]) continue;
    const QuoteDataFields& quote_fields = fields[next_fields++];
    quotes[i].quote_data = WriteQuoteDataWire(quote_fields);
    if (quote_fields.has_payload) {
      payload_prices[i] = quote_fields.numbers[kPayloadLastPrice];
      payload_volumes[i] = quote_fields.numbers[kPayloadVolume];
    }
  }
  const auto prices = GetRowNumber(payload_prices, in);
  const auto volumes = GetRowNumber(payload_volumes, in);
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    quotes[i].last_price = prices[i];
    quotes[i].volume = volumes[i];
  }
}

}  // namespace

bool StoredQuote::operator==(const StoredQuote& other) const {
  // Floats compare by their bits: the codec promises them bit for bit.
  auto same = [](const std::optional<double>& a,
                 const std::optional<double>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || DoubleBits(*a) == DoubleBits(*b);
  };
  return observed_at_us == other.observed_at_us &&
         same(last_price, other.last_price) && same(volume, other.volume) &&
         quote_data == other.quote_data && written_by == other.written_by &&
         written_at_us == other.written_at_us && seq == other.seq &&
         txid == other.txid;
}

void PutStoredQuotes(const std::vector<StoredQuote>& quotes, Writer& raw) {
  raw.Varint(quotes.size());
  PutRowColumns(quotes, raw);
  EncodePayloadColumns(quotes, raw);
}

absl::StatusOr<std::vector<StoredQuote>> GetStoredQuotes(Reader& in) {
  const uint64_t count = in.Varint();
  if (in.failed() || count > static_cast<uint64_t>(kMaxQuotesPerBatch)) {
    return absl::DataLossError("compacted batch: bad quote count");
  }
  std::vector<StoredQuote> quotes = GetRowColumns(count, in);
  DecodePayloadColumns(in, quotes);
  return quotes;
}

std::string FrameBatch(char version, const std::string& input) {
  Writer batch;
  batch.Byte(version);
  batch.Varint(input.size());
  std::string& out = batch.out();
  const size_t header = out.size();
  out.resize(header + ZSTD_compressBound(input.size()));
  const size_t compressed =
      ZSTD_compress(out.data() + header, out.size() - header, input.data(),
                    input.size(), kZstdLevel);
  // Cannot fail: the buffer has ZSTD_compressBound room and the level is
  // valid.
  out.resize(header + (ZSTD_isError(compressed) ? 0 : compressed));
  return std::move(out);
}

absl::StatusOr<std::string> UnframeBatch(absl::string_view batch,
                                         int& version) {
  Reader header(batch);
  version = header.Byte();
  if (header.failed()) {
    version = -1;
    return absl::DataLossError("compacted batch: no format version");
  }
  const uint64_t raw_size = header.Varint();
  if (header.failed() || raw_size > kMaxRawBytes) {
    return absl::DataLossError("compacted batch: bad header");
  }
  // What follows the header is the zstd frame.
  const absl::string_view frame = header.rest();
  std::string raw(raw_size, '\0');
  const size_t decompressed =
      ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(decompressed) || decompressed != raw_size) {
    return absl::DataLossError("compacted batch: corrupt zstd frame");
  }
  return raw;
}

std::string EncodeQuoteBatch(const std::vector<StoredQuote>& quotes) {
  Writer raw;
  PutStoredQuotes(quotes, raw);
  return FrameBatch(kPayloadColumnsVersion, raw.out());
}

absl::StatusOr<std::vector<StoredQuote>> DecodeQuoteBatch(
    absl::string_view batch) {
  int version = -1;
  auto raw = UnframeBatch(batch, version);
  if (version != kPayloadWholeVersion && version != kPayloadColumnsVersion) {
    return absl::DataLossError(absl::StrCat(
        "compacted quote batch: unknown format version ", version));
  }
  if (!raw.ok()) return raw.status();
  Reader in(*raw);
  absl::StatusOr<std::vector<StoredQuote>> quotes;
  if (version == kPayloadWholeVersion) {
    const uint64_t count = in.Varint();
    if (in.failed() || count > static_cast<uint64_t>(kMaxQuotesPerBatch)) {
      return absl::DataLossError("compacted quote batch: bad quote count");
    }
    quotes = GetRowColumns(count, in);
    DecodeWholePayloads(in, *quotes);
  } else {
    quotes = GetStoredQuotes(in);
    if (!quotes.ok()) return quotes.status();
  }
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated columns");
  }
  return quotes;
}

}  // namespace mdc::domain
