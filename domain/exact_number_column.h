// A column of doubles stored as exact decimals (docs/architecture.md,
// "Compacted history"): the numbers quotes carry were written as short
// decimals (1234.55, 7e6), so each is kept as an integer mantissa m with the
// column's one scale k (the double is m / 10^k, a correctly rounded
// division: the very double the decimal parses to), and the mantissas as
// deltas or deltas of deltas from one value to the next, whichever is
// smaller, in zigzag varints. A value no such decimal gives back bit for bit
// (-0.0, NaN, infinities, more than 15 decimals, |m| >= 2^53) is an
// exception stored as its 8 raw bytes: nothing is ever rounded.
#ifndef MDC_DOMAIN_EXACT_NUMBER_COLUMN_H_
#define MDC_DOMAIN_EXACT_NUMBER_COLUMN_H_

#include <cstddef>
#include <vector>

#include "domain/column_codec.h"

namespace mdc::domain::columns {

// The largest scale tried: 10^15 is exact as a double, as are all mantissas
// below 2^53, so the decode's division is correctly rounded.
inline constexpr int kMaxDecimalScale = 15;

// Writes `values` (every one present: presence is the caller's bitmap).
void PutExactNumbers(const std::vector<double>& values, Writer& out);

// Reads `count` values PutExactNumbers wrote, bit for bit. Marks `in` failed
// on bytes it never writes.
std::vector<double> GetExactNumbers(size_t count, Reader& in);
// The same into `values` (resized to `count`), so a decode that reads many
// columns reuses one buffer.
void GetExactNumbersInto(size_t count, Reader& in, std::vector<double>& values);
// Passes over `count` values PutExactNumbers wrote, checking what
// GetExactNumbers checks, without computing them.
void SkipExactNumbers(size_t count, Reader& in);
// The value at `at` (< count) of the `count` values PutExactNumbers wrote,
// passing over the others: what GetExactNumbers(count)[at] gives.
double ExactNumberAt(size_t count, size_t at, Reader& in);

}  // namespace mdc::domain::columns

#endif  // MDC_DOMAIN_EXACT_NUMBER_COLUMN_H_
