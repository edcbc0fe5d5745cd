#include "domain/quote_payload_columns.h"

#include <algorithm>

#include "domain/exact_number_column.h"

namespace mdc::domain {

using columns::ExactNumberAt;
using columns::GetDelta;
using columns::PresenceBits;
using columns::PutDelta;
using columns::PutExactNumbers;
using columns::PutPresence;
using columns::Reader;
using columns::ReadPresence;
using columns::SkipExactNumbers;
using columns::Writer;

namespace {

// More depth levels than any book has; a larger count is a corrupt batch.
constexpr uint64_t kMaxDepthLevels = 1000;

}  // namespace

// ---- Optional numbers: a presence bitmap, then the present values as an
// exact number column.
void PutOptionalNumbers(const std::vector<std::optional<double>>& values,
                        Writer& out) {
  std::vector<bool> present;
  std::vector<double> present_values;
  present.reserve(values.size());
  for (const auto& value : values) {
    present.push_back(value.has_value());
    if (value) present_values.push_back(*value);
  }
  PutPresence(present, out);
  PutExactNumbers(present_values, out);
}

// Passes over what PutOptionalNumbers wrote.
void SkipOptionalNumbers(size_t count, Reader& in) {
  const PresenceBits present = ReadPresence(count, in);
  SkipExactNumbers(present.Count(), in);
}

namespace {

// ---- Depth: the level counts of each side, then for each level index the
// price and quantity columns of the quotes that have that level.
void PutDepthSide(
    const std::vector<const std::vector<DepthLevelFields>*>& sides,
    Writer& out) {
  std::vector<int64_t> counts;
  size_t deepest = 0;
  for (const auto* side : sides) {
    counts.push_back(static_cast<int64_t>(side->size()));
    deepest = std::max(deepest, side->size());
  }
  PutDelta(counts, out);
  for (size_t level = 0; level < deepest; ++level) {
    std::vector<std::optional<double>> prices, quantities;
    for (const auto* side : sides) {
      if (side->size() <= level) continue;
      prices.push_back((*side)[level].price);
      quantities.push_back((*side)[level].quantity);
    }
    PutOptionalNumbers(prices, out);
    PutOptionalNumbers(quantities, out);
  }
}

// The level counts of `sides` quotes' side and the deepest; marks `in`
// failed on a count no book has.
std::vector<int64_t> GetLevelCounts(size_t sides, Reader& in,
                                    uint64_t& deepest) {
  std::vector<int64_t> counts = GetDelta(sides, in);
  deepest = 0;
  for (int64_t count : counts) {
    if (count < 0 || static_cast<uint64_t>(count) > kMaxDepthLevels) {
      in.Corrupt();
      deepest = 0;
      return {};
    }
    deepest = std::max(deepest, static_cast<uint64_t>(count));
  }
  return counts;
}

void GetDepthSide(std::vector<std::vector<DepthLevelFields>*>& sides,
                  std::vector<double>& scratch, Reader& in) {
  uint64_t deepest = 0;
  const std::vector<int64_t> counts = GetLevelCounts(sides.size(), in, deepest);
  if (in.failed()) return;
  for (size_t i = 0; i < sides.size(); ++i) sides[i]->resize(counts[i]);
  std::vector<DepthLevelFields*> levels;
  for (size_t level = 0; level < deepest && !in.failed(); ++level) {
    levels.clear();
    for (auto* side : sides) {
      if (side->size() > level) levels.push_back(&(*side)[level]);
    }
    ReadOptionalNumbers(
        levels.size(), in, scratch,
        [&](size_t i, double value) { levels[i]->price = value; });
    ReadOptionalNumbers(
        levels.size(), in, scratch,
        [&](size_t i, double value) { levels[i]->quantity = value; });
  }
}

// Passes over what PutDepthSide wrote for `sides` quotes, checking the
// level counts as GetDepthSide does.
void SkipDepthSide(size_t sides, Reader& in) {
  uint64_t deepest = 0;
  const std::vector<int64_t> counts = GetLevelCounts(sides, in, deepest);
  for (uint64_t level = 0; level < deepest && !in.failed(); ++level) {
    size_t with_level = 0;
    for (int64_t count : counts) {
      if (static_cast<uint64_t>(count) > level) ++with_level;
    }
    SkipOptionalNumbers(with_level, in);  // prices
    SkipOptionalNumbers(with_level, in);  // quantities
  }
}

// The value of `at` (when given and present) of what PutOptionalNumbers
// wrote for `count` values, passing over the others.
std::optional<double> OptionalNumberAt(size_t count, std::optional<size_t> at,
                                       Reader& in) {
  const PresenceBits present = ReadPresence(count, in);
  const size_t values = present.Count();
  if (at && present[*at]) return ExactNumberAt(values, present.Rank(*at), in);
  SkipExactNumbers(values, in);
  return std::nullopt;
}

// The levels of quote `at` (when given) of what PutDepthSide wrote for
// `sides` quotes, passing over the others'.
void GetDepthSideAt(size_t sides, std::optional<size_t> at,
                    std::vector<DepthLevelFields>& levels, Reader& in) {
  uint64_t deepest = 0;
  const std::vector<int64_t> counts = GetLevelCounts(sides, in, deepest);
  if (in.failed()) return;
  if (at) levels.resize(counts[*at]);
  for (uint64_t level = 0; level < deepest && !in.failed(); ++level) {
    // The quotes having this level, and the place of `at` among them.
    size_t with_level = 0;
    size_t rank = 0;
    for (size_t i = 0; i < sides; ++i) {
      if (static_cast<uint64_t>(counts[i]) <= level) continue;
      if (at && i < *at) ++rank;
      ++with_level;
    }
    const bool has_it = at && static_cast<uint64_t>(counts[*at]) > level;
    const std::optional<size_t> place =
        has_it ? std::optional<size_t>(rank) : std::nullopt;
    const std::optional<double> price = OptionalNumberAt(with_level, place, in);
    const std::optional<double> quantity =
        OptionalNumberAt(with_level, place, in);
    if (has_it) levels[level] = {price, quantity};
  }
}

}  // namespace

QuoteDataFields GetPayloadFieldsAt(size_t count, std::optional<size_t> at,
                                   Reader& in) {
  QuoteDataFields fields;
  const PresenceBits has_status = ReadPresence(count, in);
  const std::vector<int64_t> statuses = GetDelta(has_status.Count(), in);
  if (at && has_status[*at] && !in.failed()) {
    fields.status = static_cast<uint64_t>(statuses[has_status.Rank(*at)]);
  }
  const PresenceBits has_payload = ReadPresence(count, in);
  const size_t payloads = has_payload.Count();
  std::optional<size_t> payload;
  if (at && has_payload[*at]) {
    fields.has_payload = true;
    payload = has_payload.Rank(*at);
  }
  for (int field = 0; field < kPayloadNumberFields && !in.failed(); ++field) {
    fields.numbers[field] = OptionalNumberAt(payloads, payload, in);
  }
  const PresenceBits has_ohlc = ReadPresence(payloads, in);
  std::optional<size_t> ohlc;
  if (payload && has_ohlc[*payload]) {
    fields.has_ohlc = true;
    ohlc = has_ohlc.Rank(*payload);
  }
  for (int field = 0; field < 4 && !in.failed(); ++field) {
    fields.ohlc[field] = OptionalNumberAt(has_ohlc.Count(), ohlc, in);
  }
  const PresenceBits has_depth = ReadPresence(payloads, in);
  std::optional<size_t> depth;
  if (payload && has_depth[*payload]) {
    fields.has_depth = true;
    depth = has_depth.Rank(*payload);
  }
  const size_t depths = has_depth.Count();
  if (!in.failed()) GetDepthSideAt(depths, depth, fields.buy, in);
  if (!in.failed()) GetDepthSideAt(depths, depth, fields.sell, in);
  return fields;
}

// ---- The payload columns of the quotes whose payload came apart into its
// fields (`all`); the others are in the residual column.
void PutPayloadColumns(const std::vector<QuoteDataFields>& all, Writer& out) {
  std::vector<bool> has_status, has_payload;
  std::vector<int64_t> statuses;
  std::vector<const QuoteDataFields*> payloads;
  for (const auto& fields : all) {
    has_status.push_back(fields.status.has_value());
    if (fields.status) statuses.push_back(static_cast<int64_t>(*fields.status));
    has_payload.push_back(fields.has_payload);
    if (fields.has_payload) payloads.push_back(&fields);
  }
  PutPresence(has_status, out);
  PutDelta(statuses, out);
  PutPresence(has_payload, out);
  for (int field = 0; field < kPayloadNumberFields; ++field) {
    std::vector<std::optional<double>> values;
    for (const auto* payload : payloads)
      values.push_back(payload->numbers[field]);
    PutOptionalNumbers(values, out);
  }
  std::vector<bool> has_ohlc, has_depth;
  std::vector<const QuoteDataFields*> ohlcs;
  std::vector<const std::vector<DepthLevelFields>*> buys, sells;
  for (const auto* payload : payloads) {
    has_ohlc.push_back(payload->has_ohlc);
    if (payload->has_ohlc) ohlcs.push_back(payload);
    has_depth.push_back(payload->has_depth);
    if (payload->has_depth) {
      buys.push_back(&payload->buy);
      sells.push_back(&payload->sell);
    }
  }
  PutPresence(has_ohlc, out);
  for (int field = 0; field < 4; ++field) {
    std::vector<std::optional<double>> values;
    for (const auto* ohlc : ohlcs) values.push_back(ohlc->ohlc[field]);
    PutOptionalNumbers(values, out);
  }
  PutPresence(has_depth, out);
  PutDepthSide(buys, out);
  PutDepthSide(sells, out);
}

void GetPayloadColumnsInto(size_t count, Reader& in,
                           std::vector<QuoteDataFields>& all) {
  // Each payload's fields cleared, its depth vectors' memory kept.
  all.resize(count);
  for (QuoteDataFields& fields : all) {
    fields.status.reset();
    fields.has_payload = false;
    fields.numbers.fill(std::nullopt);
    fields.has_ohlc = false;
    fields.ohlc.fill(std::nullopt);
    fields.has_depth = false;
    fields.buy.clear();
    fields.sell.clear();
  }
  const PresenceBits has_status = ReadPresence(count, in);
  const std::vector<int64_t> statuses = GetDelta(has_status.Count(), in);
  const PresenceBits has_payload = ReadPresence(count, in);
  std::vector<QuoteDataFields*> payloads;
  size_t next_status = 0;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (has_status[i])
      all[i].status = static_cast<uint64_t>(statuses[next_status++]);
    all[i].has_payload = has_payload[i];
    if (has_payload[i]) payloads.push_back(&all[i]);
  }
  std::vector<double> scratch;
  for (int field = 0; field < kPayloadNumberFields && !in.failed(); ++field) {
    ReadOptionalNumbers(
        payloads.size(), in, scratch,
        [&](size_t i, double value) { payloads[i]->numbers[field] = value; });
  }
  const PresenceBits has_ohlc = ReadPresence(payloads.size(), in);
  std::vector<QuoteDataFields*> ohlcs;
  for (size_t i = 0; i < payloads.size() && !in.failed(); ++i) {
    payloads[i]->has_ohlc = has_ohlc[i];
    if (has_ohlc[i]) ohlcs.push_back(payloads[i]);
  }
  for (int field = 0; field < 4 && !in.failed(); ++field) {
    ReadOptionalNumbers(ohlcs.size(), in, scratch, [&](size_t i, double value) {
      ohlcs[i]->ohlc[field] = value;
    });
  }
  const PresenceBits has_depth = ReadPresence(payloads.size(), in);
  std::vector<std::vector<DepthLevelFields>*> buys, sells;
  for (size_t i = 0; i < payloads.size() && !in.failed(); ++i) {
    payloads[i]->has_depth = has_depth[i];
    if (has_depth[i]) {
      buys.push_back(&payloads[i]->buy);
      sells.push_back(&payloads[i]->sell);
    }
  }
  if (!in.failed()) GetDepthSide(buys, scratch, in);
  if (!in.failed()) GetDepthSide(sells, scratch, in);
}

// Of the `count` quotes GetPayloadColumnsInto would read, only the payload's
// own last_price and volume (what the row's copy), the rest passed over.
void GetPayloadPrices(size_t count, Reader& in,
                      std::vector<std::optional<double>>& prices,
                      std::vector<std::optional<double>>& volumes) {
  prices.assign(count, std::nullopt);
  volumes.assign(count, std::nullopt);
  const PresenceBits has_status = ReadPresence(count, in);
  GetDelta(has_status.Count(), in);  // the statuses
  const PresenceBits has_payload = ReadPresence(count, in);
  std::vector<size_t> payloads;
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (has_payload[i]) payloads.push_back(i);
  }
  std::vector<double> scratch;
  for (int field = 0; field < kPayloadNumberFields && !in.failed(); ++field) {
    if (field != kPayloadLastPrice && field != kPayloadVolume) {
      SkipOptionalNumbers(payloads.size(), in);
      continue;
    }
    auto& column = field == kPayloadLastPrice ? prices : volumes;
    ReadOptionalNumbers(
        payloads.size(), in, scratch,
        [&](size_t i, double value) { column[payloads[i]] = value; });
  }
  const size_t ohlcs = ReadPresence(payloads.size(), in).Count();
  for (int field = 0; field < 4 && !in.failed(); ++field) {
    SkipOptionalNumbers(ohlcs, in);
  }
  const size_t depths = ReadPresence(payloads.size(), in).Count();
  if (!in.failed()) SkipDepthSide(depths, in);  // buy
  if (!in.failed()) SkipDepthSide(depths, in);  // sell
}

}  // namespace mdc::domain
