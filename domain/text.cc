#include "domain/text.h"

#include <cstdint>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

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

bool HasControlCharacter(absl::string_view text) {
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

namespace {

bool IsControlBesidesTabNewline(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f;
}

// Whether one of the 8 bytes of `word` is below 0x20 or is 0x7f (the
// "has less" and "has zero" tests of Bit Twiddling Hacks: no byte is
// missed; a byte next to a hit may be flagged too).
bool MayHoldControl(uint64_t word) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighs = 0x8080808080808080ULL;
  const uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
  const uint64_t del = word ^ (kOnes * 0x7f);
  const uint64_t is_del = (del - kOnes) & ~del & kHighs;
  return (below_space | is_del) != 0;
}

}  // namespace

bool HasControlCharacterBesidesTabNewline(absl::string_view text) {
  // Every name of a shortlist passes here: 8 bytes at a time, and byte by
  // byte only where a word may hold one.
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, sizeof word);
    if (!MayHoldControl(word)) continue;
    for (size_t j = i; j < i + 8; ++j) {
      if (IsControlBesidesTabNewline(text[j])) return true;
    }
  }
  for (; i < text.size(); ++i) {
    if (IsControlBesidesTabNewline(text[i])) return true;
  }
  return false;
}

}  // namespace mdc::domain
