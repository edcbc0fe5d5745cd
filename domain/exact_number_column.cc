#include "domain/exact_number_column.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace mdc::domain::columns {
namespace {

// 2^53: every integer below it is exact as a double.
constexpr int64_t kExactIntegerLimit = int64_t{1} << 53;
constexpr int kNoScale = -1;

enum Mode : unsigned char { kDelta = 0, kDeltaOfDelta = 1 };

constexpr double kPow10[kMaxDecimalScale + 1] = {
    1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
constexpr int64_t kPow10Int[kMaxDecimalScale + 1] = {1,
                                                     10,
                                                     100,
                                                     1000,
                                                     10000,
                                                     100000,
                                                     1000000,
                                                     10000000,
                                                     100000000,
                                                     1000000000,
                                                     10000000000,
                                                     100000000000,
                                                     1000000000000,
                                                     10000000000000,
                                                     100000000000000,
                                                     1000000000000000};

double FromMantissa(int64_t mantissa, int scale) {
  return static_cast<double>(mantissa) / kPow10[scale];
}

bool SameBits(double a, double b) { return DoubleBits(a) == DoubleBits(b); }

// The smallest scale whose mantissa gives `value` back bit for bit, or
// kNoScale.
int SmallestScale(double value, int64_t& mantissa) {
  for (int scale = 0; scale <= kMaxDecimalScale; ++scale) {
    const double scaled = value * kPow10[scale];
    // Also false for NaN and the infinities.
    if (!(std::fabs(scaled) < static_cast<double>(kExactIntegerLimit))) break;
    const auto candidate = static_cast<int64_t>(std::rint(scaled));
    if (SameBits(FromMantissa(candidate, scale), value)) {
      mantissa = candidate;
      return scale;
    }
  }
  return kNoScale;
}

// `value`'s mantissa at `scale` (at least its smallest), when exact.
bool MantissaAt(int64_t smallest_mantissa, int smallest_scale, int scale,
                double value, int64_t& mantissa) {
  if (smallest_scale == kNoScale || smallest_scale > scale) return false;
  const int64_t factor = kPow10Int[scale - smallest_scale];
  const int64_t limit = kExactIntegerLimit / factor;
  if (smallest_mantissa >= limit || smallest_mantissa <= -limit) return false;
  mantissa = smallest_mantissa * factor;
  return SameBits(FromMantissa(mantissa, scale), value);
}

struct Plan {
  int scale = 0;
  Mode mode = kDelta;
  size_t cost = std::numeric_limits<size_t>::max();
};

// Bytes (before zstd) of the column at `scale`, for both modes.
void Consider(const std::vector<double>& values,
              const std::vector<int64_t>& smallest_mantissas,
              const std::vector<int>& smallest_scales, int scale, Plan& best) {
  size_t delta_cost = 0;
  size_t dod_cost = 0;
  size_t exceptions = 0;
  int64_t previous = 0;
  int64_t previous_delta = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t mantissa;
    if (!MantissaAt(smallest_mantissas[i], smallest_scales[i], scale, values[i],
                    mantissa)) {
      ++exceptions;
      continue;
    }
    const int64_t delta = Minus(mantissa, previous);
    delta_cost += VarintSize(ZigZag(delta));
    dod_cost += VarintSize(ZigZag(Minus(delta, previous_delta)));
    previous = mantissa;
    previous_delta = delta;
  }
  const size_t exception_cost =
      exceptions == 0 ? 0 : exceptions * 8 + (values.size() + 7) / 8;
  if (delta_cost + exception_cost < best.cost) {
    best = {scale, kDelta, delta_cost + exception_cost};
  }
  if (dod_cost + exception_cost < best.cost) {
    best = {scale, kDeltaOfDelta, dod_cost + exception_cost};
  }
}

}  // namespace

void PutExactNumbers(const std::vector<double>& values, Writer& out) {
  std::vector<int64_t> smallest_mantissas(values.size(), 0);
  std::vector<int> smallest_scales(values.size(), kNoScale);
  bool tried[kMaxDecimalScale + 1] = {};
  for (size_t i = 0; i < values.size(); ++i) {
    smallest_scales[i] = SmallestScale(values[i], smallest_mantissas[i]);
  }
  // The candidate scales are those some value needs; usually one or two.
  Plan best;
  for (int scale : smallest_scales) {
    if (scale == kNoScale || tried[scale]) continue;
    tried[scale] = true;
    Consider(values, smallest_mantissas, smallest_scales, scale, best);
  }
  if (best.cost == std::numeric_limits<size_t>::max()) {
    Consider(values, smallest_mantissas, smallest_scales, 0, best);
  }

  std::vector<bool> exceptional(values.size(), false);
  std::vector<int64_t> mantissas;
  mantissas.reserve(values.size());
  bool any_exception = false;
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t mantissa;
    if (MantissaAt(smallest_mantissas[i], smallest_scales[i], best.scale,
                   values[i], mantissa)) {
      mantissas.push_back(mantissa);
    } else {
      exceptional[i] = true;
      any_exception = true;
    }
  }
  out.Byte(static_cast<char>(best.scale));
  out.Byte(static_cast<char>(best.mode));
  out.Byte(any_exception ? 1 : 0);
  if (any_exception) {
    PutPresence(exceptional, out);
    for (size_t i = 0; i < values.size(); ++i) {
      if (exceptional[i]) out.Fixed64(DoubleBits(values[i]));
    }
  }
  if (best.mode == kDelta) {
    PutDelta(mantissas, out);
  } else {
    PutDeltaOfDelta(mantissas, out);
  }
}

std::vector<double> GetExactNumbers(size_t count, Reader& in) {
  std::vector<double> values;
  GetExactNumbersInto(count, in, values);
  return values;
}

namespace {

// A column's first bytes: its scale, its mode and whether it has
// exceptions, and then which values are exceptions. False (and `in` marked
// failed) on bytes PutExactNumbers never writes.
struct ColumnHead {
  int scale = 0;
  unsigned char mode = kDelta;
  PresenceBits exceptional;
};

bool ReadColumnHead(size_t count, Reader& in, ColumnHead& head) {
  head.scale = in.Byte();
  head.mode = in.Byte();
  const unsigned char has_exceptions = in.Byte();
  if (head.scale > kMaxDecimalScale || head.mode > kDeltaOfDelta ||
      has_exceptions > 1) {
    in.Corrupt();
    return false;
  }
  if (has_exceptions == 1) head.exceptional = ReadPresence(count, in);
  return !in.failed();
}

}  // namespace

void GetExactNumbersInto(size_t count, Reader& in,
                         std::vector<double>& values) {
  values.assign(count, 0.0);
  ColumnHead head;
  if (!ReadColumnHead(count, in, head)) return;
  const int scale = head.scale;
  const unsigned char mode = head.mode;
  const PresenceBits& exceptional = head.exceptional;
  // The exceptions' raw bytes, then the other values' mantissas (as
  // GetDelta and GetDeltaOfDelta read them), straight into `values`.
  for (size_t i = 0; i < count && !in.failed(); ++i) {
    if (exceptional[i]) values[i] = BitsDouble(in.Fixed64());
  }
  int64_t previous = 0;
  int64_t previous_delta = 0;
  const size_t exceptions = exceptional.Count();
  // The place of the next mantissa's value: past the exceptions.
  size_t i = 0;
  auto next_place = [&]() {
    if (exceptions > 0) {
      while (exceptional[i]) ++i;
    }
    return i++;
  };
  if (mode == kDelta) {
    in.Varints(count - exceptions, [&](uint64_t zigzag) {
      previous = Plus(previous, UnZigZag(zigzag));
      values[next_place()] = FromMantissa(previous, scale);
    });
  } else {
    in.Varints(count - exceptions, [&](uint64_t zigzag) {
      previous_delta = Plus(previous_delta, UnZigZag(zigzag));
      previous = Plus(previous, previous_delta);
      values[next_place()] = FromMantissa(previous, scale);
    });
  }
  if (in.failed()) values.assign(count, 0.0);
}

void SkipExactNumbers(size_t count, Reader& in) {
  ColumnHead head;
  if (!ReadColumnHead(count, in, head)) return;
  const size_t exceptions = head.exceptional.Count();
  in.Bytes(8 * exceptions);
  if (exceptions < count) in.SkipVarints(count - exceptions);
}

double ExactNumberAt(size_t count, size_t at, Reader& in) {
  ColumnHead head;
  if (!ReadColumnHead(count, in, head)) return 0.0;
  const size_t exceptions = head.exceptional.Count();
  double value = 0.0;
  // The exceptions' raw bytes in order, then the others' mantissas.
  const size_t exception_rank = head.exceptional.Rank(at);
  const absl::string_view raw = in.Bytes(8 * exceptions);
  if (in.failed()) return 0.0;
  if (head.exceptional[at]) {
    Reader one(raw.substr(8 * exception_rank, 8));
    value = BitsDouble(one.Fixed64());
  }
  const size_t exact = count - exceptions;
  const size_t exact_rank = at - exception_rank;  // when not an exception
  int64_t previous = 0;
  int64_t previous_delta = 0;
  // The mantissas up to the wanted one are summed, the others passed over.
  const size_t summed = head.exceptional[at] ? 0 : exact_rank + 1;
  if (head.mode == kDelta) {
    in.Varints(summed, [&](uint64_t zigzag) {
      previous = Plus(previous, UnZigZag(zigzag));
    });
  } else {
    in.Varints(summed, [&](uint64_t zigzag) {
      previous_delta = Plus(previous_delta, UnZigZag(zigzag));
      previous = Plus(previous, previous_delta);
    });
  }
  if (summed > 0) value = FromMantissa(previous, head.scale);
  if (exact > summed) in.SkipVarints(exact - summed);
  return in.failed() ? 0.0 : value;
}

}  // namespace mdc::domain::columns
