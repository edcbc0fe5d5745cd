// A statement's answer written out for comparing two answers in tests:
// every value of every row as PostgreSQL's binary form in hex, NULLs told
// apart.
#ifndef MDC_TESTS_SUPPORT_RESULT_ROWS_H_
#define MDC_TESTS_SUPPORT_RESULT_ROWS_H_

#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "storage/pg.h"

namespace mdc::testing {

inline std::string ResultRows(const storage::Result& result) {
  std::string out;
  for (int row = 0; row < result.rows(); ++row) {
    for (int col = 0; col < result.columns(); ++col) {
      absl::StrAppend(&out,
                      result.IsNull(row, col)
                          ? "NULL"
                          : absl::BytesToHexString(result.Bytes(row, col)),
                      "|");
    }
    out += "\n";
  }
  return out;
}

}  // namespace mdc::testing

#endif  // MDC_TESTS_SUPPORT_RESULT_ROWS_H_
