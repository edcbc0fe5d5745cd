// The stored payload of a quote (the serialized mdc.v1.QuoteData) taken
// apart into its fields and written back byte for byte, so the compacted
// batches can keep each field in a column of its own
// (docs/architecture.md, "Compacted history"). Protobuf's wire format by
// hand rather than through the generated classes: the bytes written back
// must not depend on a library version's serializer, and a quote is taken
// apart only when writing its fields back gives exactly the stored bytes;
// anything else (an unknown field, another field order, a non-minimal
// length) stays whole, in the batch's residual column.
#ifndef MDC_DOMAIN_QUOTE_PAYLOAD_WIRE_H_
#define MDC_DOMAIN_QUOTE_PAYLOAD_WIRE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// QuotePayload's fields 1 (last_price) to 25 (last_trade_time), all doubles.
inline constexpr int kPayloadNumberFields = 25;
// Their indexes in QuotePayloadFields::numbers (field number - 1).
inline constexpr int kPayloadLastPrice = 0;
inline constexpr int kPayloadVolume = 3;

struct DepthLevelFields {
  std::optional<double> price;
  std::optional<double> quantity;
};

// One QuoteData, field by field (doubles bit for bit).
struct QuoteDataFields {
  // QuoteData.status as written (a varint); absent when not written.
  std::optional<uint64_t> status;
  bool has_payload = false;
  std::array<std::optional<double>, kPayloadNumberFields> numbers;
  bool has_ohlc = false;
  std::array<std::optional<double>, 4> ohlc;  // open, high, low, close
  bool has_depth = false;
  std::vector<DepthLevelFields> buy;
  std::vector<DepthLevelFields> sell;
};

// The fields of `bytes` when WriteQuoteDataWire gives `bytes` back exactly;
// nullopt otherwise (the caller keeps the bytes whole).
std::optional<QuoteDataFields> ParseQuoteDataWire(absl::string_view bytes);

// The canonical protobuf encoding of `fields`: fields in number order,
// minimal varints, as the server's serializer writes them.
std::string WriteQuoteDataWire(const QuoteDataFields& fields);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_QUOTE_PAYLOAD_WIRE_H_
