#include "domain/column_codec.h"

#include <algorithm>

namespace mdc::domain::columns {

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

PresenceBits ReadPresence(size_t count, Reader& in) {
  absl::string_view bits = in.Bytes((count + 7) / 8);
  if (in.failed()) return PresenceBits();
  return PresenceBits(bits, count);
}

size_t PresenceBits::Count() const {
  size_t set = 0;
  const size_t whole = count_ / 8;
  for (size_t i = 0; i < whole; ++i) {
    set += static_cast<size_t>(
        __builtin_popcount(static_cast<unsigned char>(bits_[i])));
  }
  if (const size_t rest = count_ % 8; rest != 0) {
    // Only the bits that stand for values: the encoder leaves the others
    // clear, a corrupt batch may not.
    const unsigned mask = (1u << rest) - 1;
    set += static_cast<size_t>(
        __builtin_popcount(static_cast<unsigned char>(bits_[whole]) & mask));
  }
  return set;
}

size_t PresenceBits::Rank(size_t i) const {
  return PresenceBits(bits_, std::min(i, count_)).Count();
}

size_t CountPresent(const std::vector<bool>& present) {
  size_t count = 0;
  for (bool p : present) count += p ? 1 : 0;
  return count;
}

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
  const size_t present_count = CountPresent(present);
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

}  // namespace mdc::domain::columns
