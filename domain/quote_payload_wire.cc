#include "domain/quote_payload_wire.h"

#include "domain/column_codec.h"

namespace mdc::domain {
namespace {

using columns::BitsDouble;
using columns::DoubleBits;
using columns::Reader;
using columns::Writer;

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

void Tag(uint64_t field, int wire_type, Writer& out) {
  out.Varint((field << 3) | static_cast<uint64_t>(wire_type));
}

void Number(uint64_t field, const std::optional<double>& value, Writer& out) {
  if (!value) return;
  Tag(field, kFixed64, out);
  out.Fixed64(DoubleBits(*value));
}

void Message(uint64_t field, const std::string& body, Writer& out) {
  Tag(field, kLengthDelimited, out);
  out.Varint(body.size());
  out.Bytes(body);
}

std::string Level(const DepthLevelFields& level) {
  Writer out;
  Number(kLevelPriceField, level.price, out);
  Number(kLevelQuantityField, level.quantity, out);
  return std::move(out.out());
}

std::string Payload(const QuoteDataFields& fields) {
  Writer out;
  for (int i = 0; i < kPayloadNumberFields; ++i) {
    Number(static_cast<uint64_t>(i + 1), fields.numbers[i], out);
  }
  if (fields.has_ohlc) {
    Writer ohlc;
    for (int i = 0; i < 4; ++i) {
      Number(static_cast<uint64_t>(i + 1), fields.ohlc[i], ohlc);
    }
    Message(kOhlcField, ohlc.out(), out);
  }
  if (fields.has_depth) {
    Writer depth;
    for (const auto& level : fields.buy)
      Message(kBuyField, Level(level), depth);
    for (const auto& level : fields.sell) {
      Message(kSellField, Level(level), depth);
    }
    Message(kDepthField, depth.out(), out);
  }
  return std::move(out.out());
}

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
  Writer out;
  if (fields.status) {
    Tag(kStatusField, kVarint, out);
    out.Varint(*fields.status);
  }
  if (fields.has_payload) Message(kPayloadField, Payload(fields), out);
  return std::move(out.out());
}

}  // namespace mdc::domain
