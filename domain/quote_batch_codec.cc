#include "domain/quote_batch_codec.h"

#include <zstd.h>

#include <algorithm>
#include <memory>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "domain/column_codec.h"
#include "domain/exact_number_column.h"
#include "domain/quote_payload_columns.h"
#include "domain/quote_payload_wire.h"

namespace mdc::domain {
namespace {

using columns::DoubleBits;
using columns::GetDelta;
using columns::GetDeltaOfDelta;
using columns::GetFloats;
using columns::GetPresence;
using columns::PresenceBits;
using columns::PutDelta;
using columns::PutDeltaOfDelta;
using columns::PutFloats;
using columns::PutPresence;
using columns::Reader;
using columns::ReadPresence;
using columns::Writer;

// The first byte of every batch: its layout. Version 1 kept the payload as
// one column of whole protobufs; version 2 has a column per payload field;
// version 4 (written since) puts what candles and charts read in a zstd
// frame of its own, ahead of the rest (version 3 is the NIFTY batches',
// domain/nifty_batch_codec.h). The decoder reads them all, so batches
// written before stay readable; a later compaction of their day re-encodes
// them.
constexpr char kPayloadWholeVersion = 1;
constexpr char kPayloadColumnsVersion = 2;
constexpr char kPricesFirstVersion = 4;
// zstd's level: 3 (its default) compresses a day of quotes at well over the
// compaction's 50,000 quotes/s on one core; higher levels cost more CPU than
// the bytes they save are worth (docs/performance.md, "Compacted history").
constexpr int kZstdLevel = 3;
// A decoded batch is never larger: 1,000 quotes of well under 64 KiB each.
constexpr uint64_t kMaxRawBytes = uint64_t{64} << 20;
// The payloads' fields of the batch being decoded: one vector per thread,
// reused batch after batch (GetPayloadColumnsInto), since a day's decode
// would otherwise allocate and free every quote's depth.
std::vector<QuoteDataFields>& PayloadFieldsBuffer() {
  thread_local std::vector<QuoteDataFields> fields;
  return fields;
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
  std::vector<int64_t> written_at, seq, txid, writers;
  std::vector<bool> has_writer;
};

void PutInstants(const std::vector<StoredQuote>& quotes, Writer& raw) {
  std::vector<int64_t> observed;
  observed.reserve(quotes.size());
  for (const StoredQuote& quote : quotes) {
    observed.push_back(quote.observed_at_us);
  }
  PutDeltaOfDelta(observed, raw);
}

// `count` quotes with their instants set.
std::vector<StoredQuote> GetInstants(size_t count, Reader& in) {
  const std::vector<int64_t> observed = GetDeltaOfDelta(count, in);
  std::vector<StoredQuote> quotes(count);
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    quotes[i].observed_at_us = observed[i];
  }
  return quotes;
}

// The write time, the stream order and the writer.
void PutStreamColumns(const std::vector<StoredQuote>& quotes, Writer& raw) {
  RowColumns c;
  for (const StoredQuote& quote : quotes) {
    c.written_at.push_back(quote.written_at_us);
    c.seq.push_back(quote.seq);
    c.txid.push_back(static_cast<int64_t>(quote.txid));
    c.has_writer.push_back(quote.written_by.has_value());
    if (quote.written_by) c.writers.push_back(*quote.written_by);
  }
  PutDeltaOfDelta(c.written_at, raw);
  PutDelta(c.seq, raw);
  PutDelta(c.txid, raw);
  PutPresence(c.has_writer, raw);
  PutDelta(c.writers, raw);
}

void GetStreamColumns(Reader& in, std::vector<StoredQuote>& quotes) {
  const size_t count = quotes.size();
  const std::vector<int64_t> written_at = GetDeltaOfDelta(count, in);
  const std::vector<int64_t> seq = GetDelta(count, in);
  const std::vector<int64_t> txid = GetDelta(count, in);
  const PresenceBits has_writer = ReadPresence(count, in);
  const std::vector<int64_t> writers = GetDelta(has_writer.Count(), in);
  size_t next_writer = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    StoredQuote& quote = quotes[i];
    quote.written_at_us = written_at[i];
    quote.seq = seq[i];
    quote.txid = static_cast<uint64_t>(txid[i]);
    if (has_writer[i]) quote.written_by = writers[next_writer++];
  }
}

void PutRowColumns(const std::vector<StoredQuote>& quotes, Writer& raw) {
  PutInstants(quotes, raw);
  PutStreamColumns(quotes, raw);
}

std::vector<StoredQuote> GetRowColumns(size_t count, Reader& in) {
  std::vector<StoredQuote> quotes = GetInstants(count, in);
  GetStreamColumns(in, quotes);
  return quotes;
}

// Version 1: the row columns, the two prices as XORed floats, the payloads
// whole (every length, then every payload).
void DecodeWholePayloads(Reader& in, std::vector<StoredQuote>& quotes,
                         QuoteBatchParts parts) {
  const size_t count = quotes.size();
  const auto prices = GetFloats(count, in);
  const auto volumes = GetFloats(count, in);
  std::vector<uint64_t> sizes(count);
  for (uint64_t& size : sizes) size = in.Varint();
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    quotes[i].last_price = prices[i];
    quotes[i].volume = volumes[i];
    const absl::string_view payload = in.Bytes(sizes[i]);
    if (parts == QuoteBatchParts::kWhole) {
      quotes[i].quote_data = std::string(payload);
    }
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

// Which payloads came apart into columns, and the others whole (set as
// the quotes' quote_data when `keep`).
PresenceBits GetResidualPayloads(Reader& in, std::vector<StoredQuote>& quotes,
                                 bool keep) {
  const size_t count = quotes.size();
  const PresenceBits structured = ReadPresence(count, in);
  std::vector<uint64_t> residual_sizes(count - structured.Count());
  for (uint64_t& size : residual_sizes) size = in.Varint();
  size_t next_residual = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (structured[i]) continue;
    const absl::string_view payload = in.Bytes(residual_sizes[next_residual++]);
    if (keep) quotes[i].quote_data = std::string(payload);
  }
  return structured;
}

void DecodePayloadColumns(Reader& in, std::vector<StoredQuote>& quotes,
                          QuoteBatchParts parts) {
  const bool whole = parts == QuoteBatchParts::kWhole;
  const size_t count = quotes.size();
  const PresenceBits structured = GetResidualPayloads(in, quotes, whole);
  const size_t structured_count = structured.Count();
  std::vector<std::optional<double>> payload_prices(count),
      payload_volumes(count);
  if (whole) {
    std::vector<QuoteDataFields>& fields = PayloadFieldsBuffer();
    GetPayloadColumnsInto(structured_count, in, fields);
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
  } else {
    std::vector<std::optional<double>> prices, volumes;
    GetPayloadPrices(structured_count, in, prices, volumes);
    size_t next_fields = 0;
    for (size_t i = 0; i < count && !in.failed(); ++i) {
      if (!structured[i]) continue;
      payload_prices[i] = prices[next_fields];
      payload_volumes[i] = volumes[next_fields++];
    }
  }
  const auto prices = GetRowNumber(payload_prices, in);
  const auto volumes = GetRowNumber(payload_volumes, in);
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    quotes[i].last_price = prices[i];
    quotes[i].volume = volumes[i];
  }
}

// ---- zstd, one frame per call.

// Each frame carries the checksum of its content (4 bytes): a batch whose
// bytes were damaged fails its decode instead of giving other numbers.
std::string Compress(absl::string_view raw) {
  thread_local std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> context(
      [] {
        ZSTD_CCtx* made = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(made, ZSTD_c_compressionLevel, kZstdLevel);
        ZSTD_CCtx_setParameter(made, ZSTD_c_checksumFlag, 1);
        return made;
      }(),
      &ZSTD_freeCCtx);
  std::string frame(ZSTD_compressBound(raw.size()), '\0');
  const size_t compressed = ZSTD_compress2(
      context.get(), frame.data(), frame.size(), raw.data(), raw.size());
  // Cannot fail: the buffer has ZSTD_compressBound room and the parameters
  // are valid.
  frame.resize(ZSTD_isError(compressed) ? 0 : compressed);
  return frame;
}

// The frame's `raw_size` bytes. One decompression context per thread, not
// one per batch: making one costs more than a small batch's decompression.
absl::StatusOr<std::string> Decompress(absl::string_view frame,
                                       uint64_t raw_size) {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(
      ZSTD_createDCtx(), &ZSTD_freeDCtx);
  std::string raw(raw_size, '\0');
  const size_t decompressed = ZSTD_decompressDCtx(
      context.get(), raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(decompressed) || decompressed != raw_size) {
    return absl::DataLossError("compacted batch: corrupt zstd frame");
  }
  return raw;
}

// ---- Version 4: two frames. The first holds the count, the instants and
// the row's last_price and volume (exact number columns): all a decode of
// prices decompresses and reads. The second the rest: the stream columns,
// which payloads came apart, the residual payloads whole, for the payloads
// that came apart whether their own last_price and volume are the row's
// (then left out of their columns), and the payload columns.

std::string EncodePricesFirst(const std::vector<StoredQuote>& quotes) {
  Writer prices;
  prices.Varint(quotes.size());
  PutInstants(quotes, prices);
  std::vector<std::optional<double>> row_prices, row_volumes;
  for (const StoredQuote& quote : quotes) {
    row_prices.push_back(quote.last_price);
    row_volumes.push_back(quote.volume);
  }
  PutOptionalNumbers(row_prices, prices);
  PutOptionalNumbers(row_volumes, prices);

  Writer rest;
  PutStreamColumns(quotes, rest);
  std::vector<bool> structured, same_price, same_volume;
  std::vector<QuoteDataFields> fields;
  std::vector<const std::string*> residual;
  // The payload's number when it is the row's, bit for bit.
  auto same = [](const std::optional<double>& payload,
                 const std::optional<double>& row) {
    return payload && row && DoubleBits(*payload) == DoubleBits(*row);
  };
  for (const StoredQuote& quote : quotes) {
    std::optional<QuoteDataFields> parsed =
        ParseQuoteDataWire(quote.quote_data);
    structured.push_back(parsed.has_value());
    if (!parsed) {
      residual.push_back(&quote.quote_data);
      continue;
    }
    auto& price = parsed->numbers[kPayloadLastPrice];
    auto& volume = parsed->numbers[kPayloadVolume];
    same_price.push_back(parsed->has_payload && same(price, quote.last_price));
    same_volume.push_back(parsed->has_payload && same(volume, quote.volume));
    if (same_price.back()) price.reset();
    if (same_volume.back()) volume.reset();
    fields.push_back(std::move(*parsed));
  }
  PutPresence(structured, rest);
  for (const std::string* payload : residual) rest.Varint(payload->size());
  for (const std::string* payload : residual) rest.Bytes(*payload);
  PutPresence(same_price, rest);
  PutPresence(same_volume, rest);
  PutPayloadColumns(fields, rest);

  const std::string prices_frame = Compress(prices.out());
  const std::string rest_frame = Compress(rest.out());
  Writer batch;
  batch.Byte(kPricesFirstVersion);
  batch.Varint(prices.out().size());
  batch.Varint(prices_frame.size());
  batch.Varint(rest.out().size());
  batch.Bytes(prices_frame);
  batch.Bytes(rest_frame);
  return std::move(batch.out());
}

// Gives payload `at`'s own last_price and volume back from its row where
// the "are the row's" bits say so: its own are then absent and the row's
// present, and it has a payload (the encoder writes nothing else; anything
// else marks `in` failed).
void PricesFromRow(const PresenceBits& same_price,
                   const PresenceBits& same_volume, size_t at,
                   const StoredQuote& row, QuoteDataFields& fields,
                   Reader& in) {
  auto from_row = [&in](std::optional<double>& payload,
                        const std::optional<double>& value) {
    if (payload || !value) {
      in.Corrupt();
      return;
    }
    payload = value;
  };
  if (same_price[at])
    from_row(fields.numbers[kPayloadLastPrice], row.last_price);
  if (same_volume[at]) from_row(fields.numbers[kPayloadVolume], row.volume);
  if ((same_price[at] || same_volume[at]) && !fields.has_payload) in.Corrupt();
}

// Version 4's rest frame ahead of its payload columns: the stream columns
// (into `quotes`), the residual payloads (kept), which quotes have
// structured payloads, and of those which take `last_price` and `volume`
// from the row.
struct RestHead {
  PresenceBits structured;
  size_t structured_count = 0;
  PresenceBits same_price;
  PresenceBits same_volume;
};

RestHead GetRestHead(Reader& in, std::vector<StoredQuote>& quotes) {
  GetStreamColumns(in, quotes);
  RestHead head;
  head.structured = GetResidualPayloads(in, quotes, true);
  head.structured_count = head.structured.Count();
  head.same_price = ReadPresence(head.structured_count, in);
  head.same_volume = ReadPresence(head.structured_count, in);
  return head;
}
// `header` is past the version byte.
absl::StatusOr<std::vector<StoredQuote>> DecodePricesFirst(
    Reader& header, QuoteBatchParts parts) {
  const uint64_t prices_size = header.Varint();
  const uint64_t prices_frame_size = header.Varint();
  const uint64_t rest_size = header.Varint();
  if (header.failed() || prices_size > kMaxRawBytes ||
      rest_size > kMaxRawBytes) {
    return absl::DataLossError("compacted batch: bad header");
  }
  const absl::string_view prices_frame = header.Bytes(prices_frame_size);
  if (header.failed()) {
    return absl::DataLossError("compacted batch: truncated prices frame");
  }
  auto prices_raw = Decompress(prices_frame, prices_size);
  if (!prices_raw.ok()) return prices_raw.status();
  Reader prices(*prices_raw);
  const uint64_t count = prices.Varint();
  if (prices.failed() || count > static_cast<uint64_t>(kMaxQuotesPerBatch)) {
    return absl::DataLossError("compacted quote batch: bad quote count");
  }
  std::vector<StoredQuote> quotes = GetInstants(count, prices);
  std::vector<double> scratch;
  ReadOptionalNumbers(count, prices, scratch, [&](size_t i, double value) {
    quotes[i].last_price = value;
  });
  ReadOptionalNumbers(count, prices, scratch, [&](size_t i, double value) {
    quotes[i].volume = value;
  });
  if (prices.failed() || !prices.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated prices");
  }
  if (parts == QuoteBatchParts::kPrices) return quotes;

  auto rest_raw = Decompress(header.rest(), rest_size);
  if (!rest_raw.ok()) return rest_raw.status();
  Reader in(*rest_raw);
  const RestHead head = GetRestHead(in, quotes);
  std::vector<QuoteDataFields>& fields = PayloadFieldsBuffer();
  GetPayloadColumnsInto(head.structured_count, in, fields);
  size_t next_fields = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (!head.structured[i]) continue;
    const size_t at = next_fields++;
    QuoteDataFields& quote_fields = fields[at];
    PricesFromRow(head.same_price, head.same_volume, at, quotes[i],
                  quote_fields, in);
    quotes[i].quote_data = WriteQuoteDataWire(quote_fields);
  }
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated columns");
  }
  return quotes;
}

// Version 4's quote `at` alone, `quotes` its prices frame decoded
// (`header` past the version byte).
absl::StatusOr<StoredQuote> DecodeOnePricesFirst(
    Reader& header, std::vector<StoredQuote> quotes, size_t at) {
  if (at >= quotes.size()) {
    return absl::OutOfRangeError("compacted quote batch: no such quote");
  }
  // Past the prices frame, which `quotes` holds already.
  header.Varint();
  const uint64_t prices_frame_size = header.Varint();
  const uint64_t rest_size = header.Varint();
  header.Bytes(prices_frame_size);
  if (header.failed() || rest_size > kMaxRawBytes) {
    return absl::DataLossError("compacted batch: bad header");
  }
  auto rest_raw = Decompress(header.rest(), rest_size);
  if (!rest_raw.ok()) return rest_raw.status();
  Reader in(*rest_raw);
  // Residual payloads are rare (a payload the columns cannot give back):
  // kept for every quote, as the whole decode does.
  const RestHead head = GetRestHead(in, quotes);
  const std::optional<size_t> place =
      head.structured[at] ? std::optional<size_t>(head.structured.Rank(at))
                          : std::nullopt;
  QuoteDataFields fields = GetPayloadFieldsAt(head.structured_count, place, in);
  StoredQuote quote = std::move(quotes[at]);
  if (place && !in.failed()) {
    PricesFromRow(head.same_price, head.same_volume, *place, quote, fields, in);
    quote.quote_data = WriteQuoteDataWire(fields);
  }
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated columns");
  }
  return quote;
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

absl::StatusOr<std::vector<StoredQuote>> GetStoredQuotes(
    Reader& in, QuoteBatchParts parts) {
  const uint64_t count = in.Varint();
  if (in.failed() || count > static_cast<uint64_t>(kMaxQuotesPerBatch)) {
    return absl::DataLossError("compacted batch: bad quote count");
  }
  std::vector<StoredQuote> quotes = GetRowColumns(count, in);
  DecodePayloadColumns(in, quotes, parts);
  return quotes;
}

std::string FrameBatch(char version, const std::string& input) {
  Writer batch;
  batch.Byte(version);
  batch.Varint(input.size());
  batch.Bytes(Compress(input));
  return std::move(batch.out());
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
  return Decompress(header.rest(), raw_size);
}

std::string EncodeQuoteBatch(const std::vector<StoredQuote>& quotes) {
  return EncodePricesFirst(quotes);
}

absl::StatusOr<StoredQuote> DecodeQuoteAt(absl::string_view batch,
                                          std::vector<StoredQuote> prices,
                                          size_t at) {
  if (!batch.empty() && batch[0] == kPricesFirstVersion) {
    Reader header(batch.substr(1));
    return DecodeOnePricesFirst(header, std::move(prices), at);
  }
  // Earlier layouts: the whole batch.
  auto quotes = DecodeQuoteBatch(batch);
  if (!quotes.ok()) return quotes.status();
  if (at >= quotes->size()) {
    return absl::OutOfRangeError("compacted quote batch: no such quote");
  }
  return std::move((*quotes)[at]);
}

absl::StatusOr<std::vector<StoredQuote>> DecodeQuoteBatch(
    absl::string_view batch, QuoteBatchParts parts) {
  if (!batch.empty() && batch[0] == kPricesFirstVersion) {
    Reader header(batch.substr(1));
    return DecodePricesFirst(header, parts);
  }
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
    DecodeWholePayloads(in, *quotes, parts);
  } else {
    quotes = GetStoredQuotes(in, parts);
    if (!quotes.ok()) return quotes.status();
  }
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated columns");
  }
  return quotes;
}

}  // namespace mdc::domain
