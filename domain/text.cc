#include "domain/text.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mdc::domain {

bool ParseDigits(absl::string_view text, int* value) {
  if (text.empty() || text.size() > 9) return false;
  int result = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    result = result * 10 + (c - '0');
  }
  *value = result;
  return true;
}

std::string QuoteForMessage(absl::string_view text) {
  constexpr size_t kMaxShown = 40;
  const bool cut = text.size() > kMaxShown;
  return absl::StrCat("\"", absl::CHexEscape(text.substr(0, kMaxShown)),
                      cut ? "...\"" : "\"");
}

namespace {

// Unicode 15's categories Cc and Cf as ranges of code points, ascending.
struct CodePointRange {
  char32_t first;
  char32_t last;
};
constexpr CodePointRange kControlOrFormat[] = {
    {0x0000, 0x001F},   {0x007F, 0x009F},   {0x00AD, 0x00AD},
    {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},
    {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
    {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

// Whether one of the 8 bytes of `word` is below 0x20, is 0x7f, or has its
// high bit set (not printable ASCII): the "has less" and "has zero" tests
// of Bit Twiddling Hacks. No byte is missed; a byte next to a hit may be
// flagged too, which only costs the byte-wise look.
bool MayHoldOtherThanPrintableAscii(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  const uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
  const uint64_t del = word ^ (kOnes * 0x7f);
  const uint64_t is_del = (del - kOnes) & ~del & kHighs;
  return (below_space | is_del | (word & kHighs)) != 0;
}

// Decodes the UTF-8 sequence at text[*i], advancing *i past it. A byte that
// does not start a well-formed sequence is skipped alone and yields
// nothing.
std::optional<char32_t> NextCodePoint(absl::string_view text, size_t* i) {
  const auto byte = [&](size_t at) {
    return static_cast<unsigned char>(text[at]);
  };
  const unsigned char lead = byte(*i);
  int length = 0;
  char32_t c = 0;
  if (lead < 0x80) {
    ++*i;
    return lead;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    c = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    c = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    c = lead & 0x07;
  } else {
    ++*i;
    return std::nullopt;
  }
  if (*i + length > text.size()) {
    ++*i;
    return std::nullopt;
  }
  for (int k = 1; k < length; ++k) {
    const unsigned char next = byte(*i + k);
    if ((next & 0xC0) != 0x80) {
      ++*i;
      return std::nullopt;
    }
    c = (c << 6) | (next & 0x3F);
  }
  *i += length;
  return c;
}

}  // namespace

bool IsControlOrFormatCharacter(char32_t c) {
  for (const CodePointRange& range : kControlOrFormat) {
    if (c < range.first) return false;
    if (c <= range.last) return true;
  }
  return false;
}

std::optional<char32_t> FindControlOrFormatCharacter(absl::string_view text) {
  // Every name of a shortlist passes here: printable ASCII 8 bytes at a
  // time, and character by character only from a word that may hold more.
  size_t i = 0;
  while (i < text.size()) {
    if (i + 8 <= text.size()) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, sizeof word);
      if (!MayHoldOtherThanPrintableAscii(word)) {
        i += 8;
        continue;
      }
    }
    const size_t word_end = std::min(text.size(), i + 8);
    while (i < word_end) {
      const auto c = NextCodePoint(text, &i);
      if (c && IsControlOrFormatCharacter(*c)) return c;
    }
  }
  return std::nullopt;
}

std::string ControlOrFormatRule(char32_t c) {
  return absl::StrCat(
      "must not contain control or format characters (Unicode Cc, Cf); "
      "found U+",
      absl::AsciiStrToUpper(absl::StrFormat("%04x", static_cast<uint32_t>(c))));
}

}  // namespace mdc::domain
