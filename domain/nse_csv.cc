#include "domain/nse_csv.h"

#include <cctype>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "domain/text.h"
#include "domain/time.h"

namespace mdc::domain {
namespace {

// Splits `text` into records of fields, honouring quotes. Each record keeps
// the line number it starts on. A quote that never closes is an error.
struct RawRecord {
  int line = 0;
  std::vector<std::string> fields;
};

absl::StatusOr<std::vector<RawRecord>> SplitRecords(absl::string_view text) {
  std::vector<RawRecord> records;
  RawRecord current;
  std::string field;
  bool in_quotes = false;
  bool record_has_text = false;
  int line = 1;
  current.line = 1;
  int quote_line = 0;
  auto end_record = [&] {
    current.fields.push_back(std::move(field));
    field.clear();
    if (record_has_text) records.push_back(std::move(current));
    current = RawRecord();
    record_has_text = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field.push_back('"');
          ++i;
        } else {
          in_quotes = false;
        }
      } else {
        if (c == '\n') ++line;
        field.push_back(c);
      }
      continue;
    }
    switch (c) {
      case '"':
        in_quotes = true;
        quote_line = line;
        record_has_text = true;
        break;
      case ',':
        current.fields.push_back(std::move(field));
        field.clear();
        record_has_text = true;
        break;
      case '\r':
        break;  // CRLF: the '\n' ends the record
      case '\n':
        end_record();
        ++line;
        current.line = line;
        break;
      default:
        if (c != ' ' && c != '\t') record_has_text = true;
        field.push_back(c);
    }
  }
  if (in_quotes) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", quote_line, ": a quoted field is never closed"));
  }
  end_record();
  return records;
}

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or
// code points above U+10FFFF): PostgreSQL stores nothing else as text.
bool IsValidUtf8(absl::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    int extra = 0;
    char32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= text.size()) return false;  // cut short
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

std::string HeaderName(absl::string_view raw) {
  return absl::AsciiStrToUpper(absl::StripAsciiWhitespace(raw));
}

}  // namespace

absl::StatusOr<std::vector<CsvRow>> ReadCsvTable(
    absl::string_view text, const std::vector<std::string>& columns,
    absl::string_view what) {
  if (absl::StartsWith(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!IsValidUtf8(text)) {
    return absl::InvalidArgumentError(
        "the file is not CSV text: it is not valid UTF-8");
  }
  for (char c : text) {
    // Tabs and line ends are text; any other C0 control is not a CSV.
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      return absl::InvalidArgumentError(absl::StrCat(
          "the file is not CSV text: it holds control character U+00",
          absl::Hex(u, absl::kZeroPad2)));
    }
  }
  auto records = SplitRecords(text);
  if (!records.ok()) return records.status();
  if (records->empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the file is empty; expected ", what));
  }
  const RawRecord& header = records->front();
  std::vector<int> index;
  std::vector<std::string> missing;
  for (const auto& column : columns) {
    int found = -1;
    for (size_t i = 0; i < header.fields.size(); ++i) {
      if (HeaderName(header.fields[i]) == column) {
        found = static_cast<int>(i);
        break;
      }
    }
    if (found < 0) missing.push_back(column);
    index.push_back(found);
  }
  if (!missing.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", header.line, ": the header lacks column",
                     missing.size() > 1 ? "s " : " ",
                     absl::StrJoin(missing, ", "), "; expected ", what));
  }
  std::vector<CsvRow> rows;
  for (size_t r = 1; r < records->size(); ++r) {
    const RawRecord& record = (*records)[r];
    CsvRow row;
    row.line = record.line;
    for (int i : index) {
      row.fields.push_back(
          i < static_cast<int>(record.fields.size())
              ? std::string(absl::StripAsciiWhitespace(record.fields[i]))
              : std::string());
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

bool IsNseEmpty(absl::string_view field) {
  field = absl::StripAsciiWhitespace(field);
  return field.empty() || field == "-";
}

absl::StatusOr<absl::CivilDay> ParseNseDate(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  const absl::Status bad = absl::InvalidArgumentError(absl::StrCat(
      QuoteForMessage(text),
      " is not a date: use DD-MON-YYYY (14-Aug-2024), DD-MM-YYYY or "
      "YYYY-MM-DD"));
  std::vector<absl::string_view> parts = absl::StrSplit(text, '-');
  if (parts.size() != 3) return bad;
  int day = 0, month = 0, year = 0;
  if (parts[0].size() == 4) {
    if (!ParseDigits(parts[0], &year) || parts[1].size() != 2 ||
        !ParseDigits(parts[1], &month) || parts[2].size() != 2 ||
        !ParseDigits(parts[2], &day)) {
      return bad;
    }
  } else {
    if (parts[0].size() != 2 || !ParseDigits(parts[0], &day) ||
        parts[2].size() != 4 || !ParseDigits(parts[2], &year)) {
      return bad;
    }
    static constexpr const char* kMonths[] = {"JAN", "FEB", "MAR", "APR",
                                              "MAY", "JUN", "JUL", "AUG",
                                              "SEP", "OCT", "NOV", "DEC"};
    const std::string name = absl::AsciiStrToUpper(parts[1]);
    for (int m = 0; m < 12; ++m) {
      if (name == kMonths[m]) month = m + 1;
    }
    if (month == 0 &&
        (parts[1].size() != 2 || !ParseDigits(parts[1], &month))) {
      return bad;
    }
  }
  const absl::CivilDay date(year, month, day);
  if (date.year() != year || date.month() != month || date.day() != day) {
    return bad;
  }
  if (year < 1900 || year >= 2200) {
    return absl::InvalidArgumentError(
        absl::StrCat(QuoteForMessage(text), " is outside the years 1900-2199"));
  }
  return date;
}

std::optional<double> ParseNseNumber(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty() || text.size() > 30) return std::nullopt;
  int dots = 0, digits = 0;
  for (char c : text) {
    if (c == '.') {
      ++dots;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else {
      return std::nullopt;
    }
  }
  if (dots > 1 || digits == 0) return std::nullopt;
  return std::strtod(std::string(text).c_str(), nullptr);
}

}  // namespace mdc::domain
