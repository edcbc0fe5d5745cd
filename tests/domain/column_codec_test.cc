// The column building blocks' fast paths against their byte-by-byte
// definitions: passing over varints eight bytes at a time and counting
// presence bits a word at a time give what reading them one by one gives,
// on well-formed and on damaged bytes alike.
#include "domain/column_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace mdc::domain::columns {
namespace {

// What `count` calls of Varint() leave: the bytes left, or failed.
struct Passed {
  bool failed = false;
  size_t left = 0;
  bool operator==(const Passed& other) const {
    return failed == other.failed && left == other.left;
  }
};

void PrintTo(const Passed& passed, std::ostream* out) {
  *out << (passed.failed ? "failed" : "read") << ", " << passed.left
       << " bytes left";
}

Passed OneByOne(const std::string& bytes, size_t count) {
  Reader in(bytes);
  for (size_t i = 0; i < count && !in.failed(); ++i) in.Varint();
  return {in.failed(), in.rest().size()};
}

Passed Skipped(const std::string& bytes, size_t count) {
  Reader in(bytes);
  in.SkipVarints(count);
  return {in.failed(), in.rest().size()};
}

// What `count` varints read one by one and all at once give: the values,
// failed or not, the bytes left.
struct Read {
  std::vector<uint64_t> values;
  Passed passed;
};

Read ReadOneByOne(const std::string& bytes, size_t count) {
  Reader in(bytes);
  Read read;
  for (size_t i = 0; i < count; ++i) read.values.push_back(in.Varint());
  read.passed = {in.failed(), in.rest().size()};
  return read;
}

Read ReadAtOnce(const std::string& bytes, size_t count) {
  Reader in(bytes);
  Read read;
  in.Varints(count, [&](uint64_t value) { read.values.push_back(value); });
  read.passed = {in.failed(), in.rest().size()};
  return read;
}

// Varints of values of every length, some bytes then damaged: a high bit
// set or cleared, so some varints run over ten bytes or end early.
std::string RandomVarints(std::mt19937_64& random, size_t values, int damaged) {
  Writer out;
  for (size_t i = 0; i < values; ++i) {
    // Mostly small values (one-byte varints, runs of them), some of any
    // length.
    const int bits =
        static_cast<int>(random() % 4 == 0 ? random() % 65 : random() % 8);
    const uint64_t value = bits == 64 ? random() : random() >> (64 - bits);
    out.Varint(bits == 0 ? 0 : value);
  }
  std::string bytes = out.out();
  for (int i = 0; i < damaged && !bytes.empty(); ++i) {
    const size_t at = random() % bytes.size();
    bytes[at] = static_cast<char>(bytes[at] ^ 0x80);
  }
  if (random() % 4 == 0 && !bytes.empty()) {
    // A run of continuation bytes longer than any varint.
    const size_t at = random() % bytes.size();
    bytes.insert(at, std::string(9 + random() % 12, '\xff'));
  }
  return bytes;
}

TEST(ColumnCodec, PassesOverAndReadsVarintsAsReadingThemOneByOneDoes) {
  std::mt19937_64 random(20261130);
  for (int round = 0; round < 20000; ++round) {
    const size_t values = random() % 40;
    const int damaged = round % 3 == 0 ? static_cast<int>(random() % 4) : 0;
    const std::string bytes = RandomVarints(random, values, damaged);
    for (size_t count : {size_t{0}, values / 3, values / 2, values, values + 1,
                         static_cast<size_t>(random() % 50)}) {
      ASSERT_EQ(Skipped(bytes, count), OneByOne(bytes, count))
          << "round " << round << " count " << count;
      const Read one_by_one = ReadOneByOne(bytes, count);
      const Read at_once = ReadAtOnce(bytes, count);
      ASSERT_EQ(at_once.values, one_by_one.values) << "round " << round;
      ASSERT_EQ(at_once.passed, one_by_one.passed) << "round " << round;
    }
  }
}

TEST(ColumnCodec, PassesOverVarintsOfEveryLengthAtEveryOffset) {
  for (int length = 1; length <= 12; ++length) {
    for (int offset = 0; offset < 9; ++offset) {
      // `offset` one-byte varints, one of `length` bytes, then one more.
      std::string bytes(offset, '\x01');
      bytes += std::string(length - 1, '\x81');
      bytes += '\x01';
      bytes += '\x02';
      for (size_t count = 0; count <= static_cast<size_t>(offset) + 3;
           ++count) {
        EXPECT_EQ(Skipped(bytes, count), OneByOne(bytes, count))
            << "length " << length << " offset " << offset << " count "
            << count;
        EXPECT_EQ(ReadAtOnce(bytes, count).values,
                  ReadOneByOne(bytes, count).values)
            << "length " << length << " offset " << offset;
        EXPECT_EQ(ReadAtOnce(bytes, count).passed,
                  ReadOneByOne(bytes, count).passed)
            << "length " << length << " offset " << offset;
      }
    }
  }
}

TEST(ColumnCodec, CountsPresenceBitsAsTheBitsSay) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 2000; ++round) {
    const size_t count = random() % 300;
    std::string bits((count + 7) / 8 + random() % 3, '\0');
    for (char& byte : bits) byte = static_cast<char>(random());
    const PresenceBits present(bits, count);
    size_t set = 0;
    for (size_t i = 0; i < count; ++i) {
      if (((static_cast<unsigned char>(bits[i / 8]) >> (i % 8)) & 1) != 0) {
        ++set;
      }
      if (i % 17 == 0) EXPECT_EQ(present.Rank(i + 1), set);
    }
    EXPECT_EQ(present.Count(), set) << "round " << round;
  }
}

TEST(ColumnCodec, PopCountCountsEveryBit) {
  EXPECT_EQ(PopCount64(0), 0);
  EXPECT_EQ(PopCount64(~uint64_t{0}), 64);
  std::mt19937_64 random(3);
  for (int round = 0; round < 1000; ++round) {
    const uint64_t value = random();
    int set = 0;
    for (int bit = 0; bit < 64; ++bit) set += (value >> bit) & 1;
    EXPECT_EQ(PopCount64(value), set);
  }
}

}  // namespace
}  // namespace mdc::domain::columns
