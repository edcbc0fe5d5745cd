// The payload columns of the compacted quote batches (docs/architecture.md,
// "Compacted history"): a payload that came apart into its fields
// (domain/quote_payload_wire.h) is stored as a column per field, each an
// optional number column (a presence bitmap, then the present values as an
// exact number column, domain/exact_number_column.h), the depth as level
// counts and a price and quantity column per level. The layer under the
// batch codecs (domain/quote_batch_codec.h, domain/nifty_batch_codec.h);
// plain functions over a Writer and a bounds-checked Reader, which a
// corrupt batch marks failed.
#ifndef MDC_DOMAIN_QUOTE_PAYLOAD_COLUMNS_H_
#define MDC_DOMAIN_QUOTE_PAYLOAD_COLUMNS_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "domain/column_codec.h"
#include "domain/exact_number_column.h"
#include "domain/quote_payload_wire.h"

namespace mdc::domain {

void PutOptionalNumbers(const std::vector<std::optional<double>>& values,
                        columns::Writer& out);
// Reads what PutOptionalNumbers wrote, calling set(i, value) for each
// present value (the absent ones are left as they are: nullopt), through
// `scratch` rather than vectors of its own: a batch's decode reads over a
// hundred such columns.
template <typename Set>
void ReadOptionalNumbers(size_t count, columns::Reader& in,
                         std::vector<double>& scratch, Set set) {
  const columns::PresenceBits present = columns::ReadPresence(count, in);
  columns::GetExactNumbersInto(present.Count(), in, scratch);
  if (in.failed()) return;
  size_t next = 0;
  for (size_t i = 0; i < count; ++i) {
    if (present[i]) set(i, scratch[next++]);
  }
}

// Passes over what PutOptionalNumbers wrote.
void SkipOptionalNumbers(size_t count, columns::Reader& in);

// The payload columns of `all` (the payloads that came apart).
void PutPayloadColumns(const std::vector<QuoteDataFields>& all,
                       columns::Writer& out);
// What PutPayloadColumns wrote for `count` payloads, into `all` (resized
// to `count`): a decode passes the same vector batch after batch, so the
// payloads' depth levels reuse their memory.
void GetPayloadColumnsInto(size_t count, columns::Reader& in,
                           std::vector<QuoteDataFields>& all);
// The fields of payload `at` of the `count` payloads GetPayloadColumnsInto
// would read, passing over the others' values (none: every one passed
// over, the fields empty): what a read of one quote of a batch needs.
QuoteDataFields GetPayloadFieldsAt(size_t count, std::optional<size_t> at,
                                   columns::Reader& in);

// Of the `count` payloads GetPayloadColumnsInto would read, only their own
// last_price and volume, the rest passed over.
void GetPayloadPrices(size_t count, columns::Reader& in,
                      std::vector<std::optional<double>>& prices,
                      std::vector<std::optional<double>>& volumes);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_QUOTE_PAYLOAD_COLUMNS_H_
