#include "domain/text.h"

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

bool HasControlCharacterBesidesTabNewline(absl::string_view text) {
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) return true;
  }
  return false;
}

}  // namespace mdc::domain
