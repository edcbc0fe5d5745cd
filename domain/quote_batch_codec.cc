#include "domain/quote_batch_codec.h"

#include <zstd.h>

#include <cstring>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace mdc::domain {
namespace {

// The first byte of every batch: the layout below. A new layout gets a new
// number and the decoder keeps reading the old ones.
constexpr char kFormatVersion = 1;
// zstd's level: 3 (its default) compresses a day of quotes at well over the
// compaction's 50,000 quotes/s on one core; higher levels cost more CPU than
// the bytes they save are worth (docs/performance.md, "Compacted history").
constexpr int kZstdLevel = 3;
// A decoded batch is never larger: 1,000 quotes of well under 64 KiB each.
constexpr uint64_t kMaxRawBytes = uint64_t{64} << 20;

uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^
         static_cast<uint64_t>(value >> 63);
}

int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

// Differences wrap (unsigned arithmetic): any int64 sequence round-trips.
int64_t Minus(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t Plus(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

double BitsDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

class Writer {
 public:
  void Varint(uint64_t value) {
    while (value >= 0x80) {
      out_.push_back(static_cast<char>(value | 0x80));
      value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
  }
  void Bytes(absl::string_view bytes) {
    out_.append(bytes.data(), bytes.size());
  }
  void Byte(char byte) { out_.push_back(byte); }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

// Reads what Writer wrote; any read past the end sets failed() and answers
// zeros, so a corrupted batch fails its decode instead of reading memory it
// does not own.
class Reader {
 public:
  explicit Reader(absl::string_view in) : in_(in) {}
  uint64_t Varint() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return Fail();
      const auto byte = static_cast<unsigned char>(in_.front());
      in_.remove_prefix(1);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return Fail();
  }
  absl::string_view Bytes(uint64_t size) {
    if (size > in_.size()) {
      Fail();
      return {};
    }
    absl::string_view bytes = in_.substr(0, size);
    in_.remove_prefix(size);
    return bytes;
  }
  bool failed() const { return failed_; }
  bool at_end() const { return in_.empty(); }
  absl::string_view rest() const { return in_; }

 private:
  uint64_t Fail() {
    failed_ = true;
    in_ = {};
    return 0;
  }
  absl::string_view in_;
  bool failed_ = false;
};

// Times: the first value, then the change of the step (delta of delta),
// zigzag varints. Quotes a second apart cost one byte each.
void PutDeltaOfDelta(const std::vector<int64_t>& values, Writer& out) {
  int64_t previous = 0;
  int64_t previous_delta = 0;
  for (int64_t value : values) {
    const int64_t delta = Minus(value, previous);
    out.Varint(ZigZag(Minus(delta, previous_delta)));
    previous = value;
    previous_delta = delta;
  }
}

std::vector<int64_t> GetDeltaOfDelta(size_t count, Reader& in) {
  std::vector<int64_t> values(count);
  int64_t previous = 0;
  int64_t previous_delta = 0;
  for (size_t i = 0; i < count; ++i) {
    previous_delta = Plus(previous_delta, UnZigZag(in.Varint()));
    previous = Plus(previous, previous_delta);
    values[i] = previous;
  }
  return values;
}

// Counters (seq, txid, writer): the change from the previous value.
void PutDelta(const std::vector<int64_t>& values, Writer& out) {
  int64_t previous = 0;
  for (int64_t value : values) {
    out.Varint(ZigZag(Minus(value, previous)));
    previous = value;
  }
}

std::vector<int64_t> GetDelta(size_t count, Reader& in) {
  std::vector<int64_t> values(count);
  int64_t previous = 0;
  for (size_t i = 0; i < count; ++i) {
    previous = Plus(previous, UnZigZag(in.Varint()));
    values[i] = previous;
  }
  return values;
}

// Which values are present, one bit per quote.
void PutPresence(const std::vector<bool>& present, Writer& out) {
  std::string bits((present.size() + 7) / 8, '\0');
  for (size_t i = 0; i < present.size(); ++i) {
    if (present[i]) bits[i / 8] |= static_cast<char>(1 << (i % 8));
  }
  out.Bytes(bits);
}

std::vector<bool> GetPresence(size_t count, Reader& in) {
  absl::string_view bits = in.Bytes((count + 7) / 8);
  std::vector<bool> present(count, false);
  if (in.failed()) return present;
  for (size_t i = 0; i < count; ++i) {
    present[i] = (static_cast<unsigned char>(bits[i / 8]) >> (i % 8)) & 1;
  }
  return present;
}

// Floats: each present value XORed with the previous present one (a price
// that moves a little keeps its sign, exponent and leading mantissa bits:
// zeros), then the 8 bytes of every value laid out byte plane by byte plane,
// so zstd sees long runs of zeros. Bit-exact: NaNs and -0.0 survive.
void PutFloats(const std::vector<std::optional<double>>& values, Writer& out) {
  std::vector<bool> present;
  std::vector<uint64_t> xored;
  present.reserve(values.size());
  uint64_t previous = 0;
  for (const auto& value : values) {
    present.push_back(value.has_value());
    if (!value) continue;
    const uint64_t bits = DoubleBits(*value);
    xored.push_back(bits ^ previous);
    previous = bits;
  }
  PutPresence(present, out);
  for (int plane = 0; plane < 8; ++plane) {
    for (uint64_t bits : xored) {
      out.Byte(static_cast<char>(bits >> (8 * plane)));
    }
  }
}

std::vector<std::optional<double>> GetFloats(size_t count, Reader& in) {
  const std::vector<bool> present = GetPresence(count, in);
  size_t present_count = 0;
  for (bool p : present) present_count += p ? 1 : 0;
  std::vector<uint64_t> xored(present_count, 0);
  for (int plane = 0; plane < 8; ++plane) {
    absl::string_view bytes = in.Bytes(present_count);
    if (in.failed()) break;
    for (size_t i = 0; i < present_count; ++i) {
      xored[i] |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i]))
                  << (8 * plane);
    }
  }
  std::vector<std::optional<double>> values(count);
  uint64_t previous = 0;
  size_t next = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (!present[i]) continue;
    previous ^= xored[next++];
    values[i] = BitsDouble(previous);
  }
  return values;
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

std::string EncodeQuoteBatch(const std::vector<StoredQuote>& quotes) {
  const size_t count = quotes.size();
  std::vector<int64_t> observed, written_at, seq, txid, writers;
  std::vector<bool> has_writer;
  std::vector<std::optional<double>> prices, volumes;
  for (const StoredQuote& quote : quotes) {
    observed.push_back(quote.observed_at_us);
    written_at.push_back(quote.written_at_us);
    seq.push_back(quote.seq);
    txid.push_back(static_cast<int64_t>(quote.txid));
    has_writer.push_back(quote.written_by.has_value());
    if (quote.written_by) writers.push_back(*quote.written_by);
    prices.push_back(quote.last_price);
    volumes.push_back(quote.volume);
  }
  Writer raw;
  raw.Varint(count);
  PutDeltaOfDelta(observed, raw);
  PutDeltaOfDelta(written_at, raw);
  PutDelta(seq, raw);
  PutDelta(txid, raw);
  PutPresence(has_writer, raw);
  PutDelta(writers, raw);
  PutFloats(prices, raw);
  PutFloats(volumes, raw);
  // The payloads column: every length, then every payload back to back,
  // so zstd finds the fields repeated from one quote to the next.
  for (const StoredQuote& quote : quotes) raw.Varint(quote.quote_data.size());
  for (const StoredQuote& quote : quotes) raw.Bytes(quote.quote_data);

  const std::string& input = raw.out();
  Writer batch;
  batch.Byte(kFormatVersion);
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

absl::StatusOr<std::vector<StoredQuote>> DecodeQuoteBatch(
    absl::string_view batch) {
  Reader header(batch);
  const absl::string_view version_byte = header.Bytes(1);
  const int version =
      header.failed() ? -1 : static_cast<unsigned char>(version_byte[0]);
  if (version != kFormatVersion) {
    return absl::DataLossError(absl::StrCat(
        "compacted quote batch: unknown format version ", version));
  }
  const uint64_t raw_size = header.Varint();
  if (header.failed() || raw_size > kMaxRawBytes) {
    return absl::DataLossError("compacted quote batch: bad header");
  }
  // What follows the header is the zstd frame.
  const absl::string_view frame = header.rest();
  std::string raw(raw_size, '\0');
  const size_t decompressed =
      ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(decompressed) || decompressed != raw_size) {
    return absl::DataLossError("compacted quote batch: corrupt zstd frame");
  }

  Reader in(raw);
  const uint64_t count = in.Varint();
  if (in.failed() || count > static_cast<uint64_t>(kMaxQuotesPerBatch)) {
    return absl::DataLossError("compacted quote batch: bad quote count");
  }
  const std::vector<int64_t> observed = GetDeltaOfDelta(count, in);
  const std::vector<int64_t> written_at = GetDeltaOfDelta(count, in);
  const std::vector<int64_t> seq = GetDelta(count, in);
  const std::vector<int64_t> txid = GetDelta(count, in);
  const std::vector<bool> has_writer = GetPresence(count, in);
  size_t writer_count = 0;
  for (bool has : has_writer) writer_count += has ? 1 : 0;
  const std::vector<int64_t> writers = GetDelta(writer_count, in);
  const auto prices = GetFloats(count, in);
  const auto volumes = GetFloats(count, in);
  std::vector<uint64_t> sizes(count);
  for (uint64_t& size : sizes) size = in.Varint();
  std::vector<StoredQuote> quotes(count);
  size_t next_writer = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    StoredQuote& quote = quotes[i];
    quote.observed_at_us = observed[i];
    quote.written_at_us = written_at[i];
    quote.seq = seq[i];
    quote.txid = static_cast<uint64_t>(txid[i]);
    if (has_writer[i]) quote.written_by = writers[next_writer++];
    quote.last_price = prices[i];
    quote.volume = volumes[i];
    quote.quote_data = std::string(in.Bytes(sizes[i]));
  }
  if (in.failed() || !in.at_end()) {
    return absl::DataLossError("compacted quote batch: truncated columns");
  }
  return quotes;
}

}  // namespace mdc::domain
