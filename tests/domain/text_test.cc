// domain/text.h: the control-character check, which reads names 8 bytes at
// a time, against the rule read byte by byte.
#include "domain/text.h"

#include <gtest/gtest.h>

#include <string>

namespace mdc::domain {
namespace {

bool Reference(const std::string& text) {
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) return true;
  }
  return false;
}

TEST(HasControlCharacterBesidesTabNewline,
     AgreesWithTheRuleForEveryByteAnywhere) {
  for (size_t length = 1; length <= 25; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(byte);
        ASSERT_EQ(HasControlCharacterBesidesTabNewline(text), Reference(text))
            << "byte " << byte << " at " << at << " of " << length;
      }
    }
  }
}

TEST(HasControlCharacterBesidesTabNewline, NamesOfEveryKind) {
  EXPECT_FALSE(HasControlCharacterBesidesTabNewline(""));
  EXPECT_FALSE(HasControlCharacterBesidesTabNewline("Tata Motors Limited"));
  EXPECT_FALSE(HasControlCharacterBesidesTabNewline("line\none\ttab"));
  EXPECT_FALSE(
      HasControlCharacterBesidesTabNewline("Bajaj Finserv \xe2\x82\xb9"));
  EXPECT_TRUE(HasControlCharacterBesidesTabNewline("Infosys Limited\r"));
  EXPECT_TRUE(HasControlCharacterBesidesTabNewline(std::string("nul\0x", 5)));
  EXPECT_TRUE(HasControlCharacterBesidesTabNewline("\x7f delete"));
  // Bytes next to one another that only together look like a hit.
  EXPECT_FALSE(HasControlCharacterBesidesTabNewline("\x80\x20\x21\x7e\xff  "));
}

}  // namespace
}  // namespace mdc::domain
