// The building blocks of the compacted quote batches' columns
// (docs/architecture.md, "Compacted history"): varints, zigzag, presence
// bitmaps, deltas and deltas of deltas, and bit-exact XORed floats. Plain
// functions over a byte Writer and a bounds-checked Reader, shared by the
// batch codec (domain/quote_batch_codec.*) and the exact number columns
// (domain/exact_number_column.*).
#ifndef MDC_DOMAIN_COLUMN_CODEC_H_
#define MDC_DOMAIN_COLUMN_CODEC_H_

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mdc::domain::columns {

inline uint64_t ZigZag(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^
         static_cast<uint64_t>(value >> 63);
}

inline int64_t UnZigZag(uint64_t value) {
  return static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
}

// Differences wrap (unsigned arithmetic): any int64 sequence round-trips.
inline int64_t Minus(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
inline int64_t Plus(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}

// The set bits of `value`, without a call into libgcc (the build targets
// the x86-64 baseline, which has no popcount instruction).
inline int PopCount64(uint64_t value) {
  value = value - ((value >> 1) & 0x5555555555555555ULL);
  value =
      (value & 0x3333333333333333ULL) + ((value >> 2) & 0x3333333333333333ULL);
  value = (value + (value >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((value * 0x0101010101010101ULL) >> 56);
}

inline uint64_t DoubleBits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline double BitsDouble(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Bytes of a varint of `value`: what an encoding will cost, before zstd.
inline int VarintSize(uint64_t value) {
  int size = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++size;
  }
  return size;
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
  void Fixed64(uint64_t value) {
    for (int i = 0; i < 8; ++i)
      out_.push_back(static_cast<char>(value >> (8 * i)));
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
  // A varint of 64 bits takes at most 10 bytes; one with more fails.
  static constexpr int kMaxVarintBytes = 10;
  explicit Reader(absl::string_view in) : in_(in) {}
  uint64_t Varint() {
    uint64_t value = 0;
    if (in_.size() >= kMaxVarintBytes) {
      // The longest varint is there: no bound to check byte by byte (a
      // latest-quote read takes a batch's values this way, thousands each).
      const int size = VarintWithin(
          reinterpret_cast<const unsigned char*>(in_.data()), value);
      if (size == 0) return Fail();
      in_.remove_prefix(size);
      return value;
    }
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return Fail();
      const auto byte = static_cast<unsigned char>(in_.front());
      in_.remove_prefix(1);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return value;
    }
    return Fail();
  }
  // Passes over `count` varints: what `count` calls of Varint() do, the
  // same failures included, eight bytes at a time.
  void SkipVarints(size_t count);
  // Hands `count` varints to `take` in order: what `count` calls of
  // Varint() read, the same failures included (each varint from a failed
  // one on is 0), with the bounds in registers, not re-stored in the
  // Reader after every byte: a column's decode is such a loop.
  template <typename Take>
  void Varints(size_t count, Take&& take) {
    const auto* const start =
        reinterpret_cast<const unsigned char*>(in_.data());
    const unsigned char* next = start;
    const unsigned char* const end = start + in_.size();
    bool too_long = false;
    for (; count > 0 && end - next >= kMaxVarintBytes; --count) {
      uint64_t value;
      const int size = VarintWithin(next, value);
      if (size == 0) {
        too_long = true;
        break;
      }
      next += size;
      take(value);
    }
    in_.remove_prefix(static_cast<size_t>(next - start));
    if (too_long) Fail();
    for (; count > 0; --count) take(Varint());
  }
  uint64_t Fixed64() {
    absl::string_view bytes = Bytes(8);
    if (failed_) return 0;
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) {
      value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i]))
               << (8 * i);
    }
    return value;
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
  unsigned char Byte() {
    absl::string_view byte = Bytes(1);
    return failed_ ? 0 : static_cast<unsigned char>(byte[0]);
  }
  // Marks the input bad (a value the encoder never writes).
  void Corrupt() { Fail(); }
  bool failed() const { return failed_; }
  bool at_end() const { return in_.empty(); }
  absl::string_view rest() const { return in_; }

 private:
  // The varint at `bytes`, which hold at least kMaxVarintBytes bytes, into
  // `value`; returns its size, or 0 when it runs over kMaxVarintBytes.
  static int VarintWithin(const unsigned char* bytes, uint64_t& value) {
    value = 0;
    for (int i = 0; i < kMaxVarintBytes; ++i) {
      value |= static_cast<uint64_t>(bytes[i] & 0x7f) << (7 * i);
      if ((bytes[i] & 0x80) == 0) return i + 1;
    }
    return 0;
  }
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
void PutDeltaOfDelta(const std::vector<int64_t>& values, Writer& out);
std::vector<int64_t> GetDeltaOfDelta(size_t count, Reader& in);

// Counters: the change from the previous value.
void PutDelta(const std::vector<int64_t>& values, Writer& out);
std::vector<int64_t> GetDelta(size_t count, Reader& in);

// Which values are present, one bit per value.
void PutPresence(const std::vector<bool>& present, Writer& out);
std::vector<bool> GetPresence(size_t count, Reader& in);
size_t CountPresent(const std::vector<bool>& present);

// The bits PutPresence wrote, read in place (no copy: a batch's decode
// reads a hundred such bitmaps). Every bit is clear when the read failed.
class PresenceBits {
 public:
  PresenceBits() = default;
  PresenceBits(absl::string_view bits, size_t count)
      : bits_(bits), count_(count) {}
  bool operator[](size_t i) const {
    return i < count_ &&
           ((static_cast<unsigned char>(bits_[i >> 3]) >> (i & 7)) & 1) != 0;
  }
  // How many of the `count` bits are set.
  size_t Count() const;
  // How many of the bits before `i` are set.
  size_t Rank(size_t i) const;

 private:
  absl::string_view bits_;
  size_t count_ = 0;
};
PresenceBits ReadPresence(size_t count, Reader& in);

// Floats bit for bit: each present value XORed with the previous present
// one, the 8 bytes laid out byte plane by byte plane (presence bitmap
// first).
void PutFloats(const std::vector<std::optional<double>>& values, Writer& out);
std::vector<std::optional<double>> GetFloats(size_t count, Reader& in);

}  // namespace mdc::domain::columns

#endif  // MDC_DOMAIN_COLUMN_CODEC_H_
