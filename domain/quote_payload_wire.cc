#include "domain/quote_payload_wire.h"

#include <cassert>
#include <cstddef>

#include "domain/column_codec.h"

namespace mdc::domain {
namespace {

using columns::BitsDouble;
using columns::DoubleBits;
using columns::Reader;

constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;

// QuoteData, QuotePayload, Ohlc, Depth and DepthLevel field numbers
// (proto/mdc/v1/market.proto).
constexpr uint64_t kStatusField = 1;
constexpr uint64_t kPayloadField = 2;
constexpr uint64_t kOhlcField = 26;
constexpr uint64_t kDepthField = 27;
constexpr uint64_t kBuyField = 1;
constexpr uint64_t kSellField = 2;
constexpr uint64_t kLevelPriceField = 1;
constexpr uint64_t kLevelQuantityField = 2;

// The wire is written in two passes: the size of each nested message first
// (a length comes before its body), then every byte straight into a string
// of exactly the total size. A decode of a compacted batch writes a
// payload for each of its quotes, so no temporary string per message.

uint64_t TagOf(uint64_t field, int wire_type) {
  return (field << 3) | static_cast<uint64_t>(wire_type);
}

size_t NumberSize(uint64_t field, const std::optional<double>& value) {
  return value ? columns::VarintSize(TagOf(field, kFixed64)) + 8 : 0;
}

size_t MessageSize(uint64_t field, size_t body) {
  return columns::VarintSize(TagOf(field, kLengthDelimited)) +
         columns::VarintSize(body) + body;
}

size_t LevelSize(const DepthLevelFields& level) {
  return NumberSize(kLevelPriceField, level.price) +
         NumberSize(kLevelQuantityField, level.quantity);
}

// The sizes of a QuoteData's messages' bodies.
struct WireSizes {
  size_t ohlc = 0;
  size_t depth = 0;
  size_t payload = 0;
  size_t total = 0;
};

WireSizes SizesOf(const QuoteDataFields& fields) {
  WireSizes sizes;
  if (fields.status) {
    sizes.total += columns::VarintSize(TagOf(kStatusField, kVarint)) +
                   columns::VarintSize(*fields.status);
  }
  if (!fields.has_payload) return sizes;
  for (int i = 0; i < kPayloadNumberFields; ++i) {
    sizes.payload +=
        NumberSize(static_cast<uint64_t>(i + 1), fields.numbers[i]);
  }
  if (fields.has_ohlc) {
    for (int i = 0; i < 4; ++i) {
      sizes.ohlc += NumberSize(static_cast<uint64_t>(i + 1), fields.ohlc[i]);
    }
    sizes.payload += MessageSize(kOhlcField, sizes.ohlc);
  }
  if (fields.has_depth) {
    for (const auto& level : fields.buy) {
      sizes.depth += MessageSize(kBuyField, LevelSize(level));
    }
    for (const auto& level : fields.sell) {
      sizes.depth += MessageSize(kSellField, LevelSize(level));
    }
    sizes.payload += MessageSize(kDepthField, sizes.depth);
  }
  sizes.total += MessageSize(kPayloadField, sizes.payload);
  return sizes;
}

// Writes into memory SizesOf counted.
class WireOut {
 public:
  explicit WireOut(char* at) : at_(at) {}
  char* at() const { return at_; }

  void Varint(uint64_t value) {
    while (value >= 0x80) {
      *at_++ = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    *at_++ = static_cast<char>(value);
  }
  void Number(uint64_t field, const std::optional<double>& value) {
    if (!value) return;
    Varint(TagOf(field, kFixed64));
    const uint64_t bits = DoubleBits(*value);
    for (int i = 0; i < 8; ++i) *at_++ = static_cast<char>(bits >> (8 * i));
  }
  void MessageHeader(uint64_t field, size_t body) {
    Varint(TagOf(field, kLengthDelimited));
    Varint(body);
  }
  void Level(uint64_t field, const DepthLevelFields& level) {
    MessageHeader(field, LevelSize(level));
    Number(kLevelPriceField, level.price);
    Number(kLevelQuantityField, level.quantity);
  }

 private:
  char* at_;
};

// Reads one field's tag; false at the end or on a bad tag.
bool NextField(Reader& in, uint64_t& field, int& wire_type) {
  if (in.at_end()) return false;
  const uint64_t tag = in.Varint();
  field = tag >> 3;
  wire_type = static_cast<int>(tag & 7);
  return !in.failed();
}

absl::string_view Body(Reader& in) { return in.Bytes(in.Varint()); }

// Each parser answers false on anything it does not know; duplicates and
// order are caught by the caller's write-back comparison.
bool ParseLevel(absl::string_view bytes, DepthLevelFields& level) {
  Reader in(bytes);
  uint64_t field;
  int wire_type;
  while (NextField(in, field, wire_type)) {
    if (wire_type != kFixed64) return false;
    const double value = BitsDouble(in.Fixed64());
    if (field == kLevelPriceField) {
      level.price = value;
    } else if (field == kLevelQuantityField) {
      level.quantity = value;
    } else {
      return false;
    }
  }
  return !in.failed();
}

bool ParseDepth(absl::string_view bytes, QuoteDataFields& fields) {
  Reader in(bytes);
  uint64_t field;
  int wire_type;
  while (NextField(in, field, wire_type)) {
    if (wire_type != kLengthDelimited ||
        (field != kBuyField && field != kSellField)) {
      return false;
    }
    DepthLevelFields level;
    const absl::string_view body = Body(in);
    if (in.failed() || !ParseLevel(body, level)) return false;
    (field == kBuyField ? fields.buy : fields.sell).push_back(level);
  }
  return !in.failed();
}

bool ParseOhlc(absl::string_view bytes, QuoteDataFields& fields) {
  Reader in(bytes);
  uint64_t field;
  int wire_type;
  while (NextField(in, field, wire_type)) {
    if (wire_type != kFixed64 || field < 1 || field > 4) return false;
    fields.ohlc[field - 1] = BitsDouble(in.Fixed64());
  }
  return !in.failed();
}

bool ParsePayload(absl::string_view bytes, QuoteDataFields& fields) {
  Reader in(bytes);
  uint64_t field;
  int wire_type;
  while (NextField(in, field, wire_type)) {
    if (field >= 1 && field <= kPayloadNumberFields) {
      if (wire_type != kFixed64) return false;
      fields.numbers[field - 1] = BitsDouble(in.Fixed64());
    } else if (field == kOhlcField && wire_type == kLengthDelimited) {
      fields.has_ohlc = true;
      const absl::string_view body = Body(in);
      if (in.failed() || !ParseOhlc(body, fields)) return false;
    } else if (field == kDepthField && wire_type == kLengthDelimited) {
      fields.has_depth = true;
      const absl::string_view body = Body(in);
      if (in.failed() || !ParseDepth(body, fields)) return false;
    } else {
      return false;
    }
  }
  return !in.failed();
}

}  // namespace

std::optional<QuoteDataFields> ParseQuoteDataWire(absl::string_view bytes) {
  QuoteDataFields fields;
  Reader in(bytes);
  uint64_t field;
  int wire_type;
  while (NextField(in, field, wire_type)) {
    if (field == kStatusField && wire_type == kVarint) {
      fields.status = in.Varint();
    } else if (field == kPayloadField && wire_type == kLengthDelimited) {
      fields.has_payload = true;
      const absl::string_view body = Body(in);
      if (in.failed() || !ParsePayload(body, fields)) return std::nullopt;
    } else {
      return std::nullopt;
    }
  }
  if (in.failed() || WriteQuoteDataWire(fields) != bytes) return std::nullopt;
  return fields;
}

std::string WriteQuoteDataWire(const QuoteDataFields& fields) {
  const WireSizes sizes = SizesOf(fields);
  std::string bytes(sizes.total, '\0');
  WireOut out(bytes.data());
  if (fields.status) {
    out.Varint(TagOf(kStatusField, kVarint));
    out.Varint(*fields.status);
  }
  if (fields.has_payload) {
    out.MessageHeader(kPayloadField, sizes.payload);
    for (int i = 0; i < kPayloadNumberFields; ++i) {
      out.Number(static_cast<uint64_t>(i + 1), fields.numbers[i]);
    }
    if (fields.has_ohlc) {
      out.MessageHeader(kOhlcField, sizes.ohlc);
      for (int i = 0; i < 4; ++i) {
        out.Number(static_cast<uint64_t>(i + 1), fields.ohlc[i]);
      }
    }
    if (fields.has_depth) {
      out.MessageHeader(kDepthField, sizes.depth);
      for (const auto& level : fields.buy) out.Level(kBuyField, level);
      for (const auto& level : fields.sell) out.Level(kSellField, level);
    }
  }
  // SizesOf and the writes above follow the same fields.
  assert(out.at() == bytes.data() + bytes.size());
  return bytes;
}

}  // namespace mdc::domain
