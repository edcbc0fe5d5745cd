#include "domain/column_codec.h"

#include <algorithm>
#include <cstring>

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
  int64_t* value = values.data();
  in.Varints(count, [&](uint64_t zigzag) {
    previous_delta = Plus(previous_delta, UnZigZag(zigzag));
    previous = Plus(previous, previous_delta);
    *value++ = previous;
  });
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
  int64_t* value = values.data();
  in.Varints(count, [&](uint64_t zigzag) {
    previous = Plus(previous, UnZigZag(zigzag));
    *value++ = previous;
  });
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
  size_t i = 0;
  for (; i + 8 <= whole; i += 8) {
    uint64_t word;
    std::memcpy(&word, bits_.data() + i, sizeof word);
    set += static_cast<size_t>(PopCount64(word));
  }
  for (; i < whole; ++i) {
    set +=
        static_cast<size_t>(PopCount64(static_cast<unsigned char>(bits_[i])));
  }
  if (const size_t rest = count_ % 8; rest != 0) {
    // Only the bits that stand for values: the encoder leaves the others
    // clear, a corrupt batch may not.
    const unsigned mask = (1u << rest) - 1;
    set += static_cast<size_t>(
        PopCount64(static_cast<unsigned char>(bits_[whole]) & mask));
  }
  return set;
}

void Reader::SkipVarints(size_t count) {
  if (failed_) return;
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(in_.data());
  size_t left = in_.size();
  // Continuation bytes (high bit set) since the last varint's end.
  size_t run = 0;
  // Eight bytes at a time while the varints ending in them are all wanted
  // (the bytes of a little-endian word in their order).
  while (count > 0 && left >= 8) {
    uint64_t word;
    std::memcpy(&word, bytes, sizeof word);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    const uint64_t ends = ~word & kHighBits;
    const auto ended =
        static_cast<size_t>(((ends >> 7) * 0x0101010101010101ULL) >> 56);
    if (ended > count) break;
    // The continuation bytes before the word's first varint end.
    const size_t lead =
        ended == 0 ? 8 : static_cast<size_t>(__builtin_ctzll(ends)) / 8;
    // A varint too long: the byte loop below fails on it.
    if (run + lead >= static_cast<size_t>(kMaxVarintBytes)) break;
    // The continuation bytes after its last one: the next varint's.
    const size_t trail =
        ended == 0 ? 0 : static_cast<size_t>(__builtin_clzll(ends)) / 8;
    count -= ended;
    if (count == 0) {
      // The next varint is not passed over.
      bytes += 8 - trail;
      left -= 8 - trail;
      break;
    }
    run = ended == 0 ? run + 8 : trail;
    bytes += 8;
    left -= 8;
  }
  // The rest byte by byte; a varint begun above carries its run on.
  while (count > 0) {
    if (left == 0 || run >= static_cast<size_t>(kMaxVarintBytes)) {
      Fail();
      return;
    }
    if ((*bytes & 0x80) != 0) {
      ++run;
    } else {
      run = 0;
      --count;
    }
    ++bytes;
    --left;
  }
  in_.remove_prefix(in_.size() - left);
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
