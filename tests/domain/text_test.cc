// domain/text.h: the control-and-format-character check, which reads names
// 8 bytes at a time, against the rule read character by character. (The
// e2e suite checks the table itself against Go's unicode.Cc and unicode.Cf.)
#include "domain/text.h"

#include <gtest/gtest.h>

#include <string>

namespace mdc::domain {
namespace {

// Appends the UTF-8 form of `c`.
void AppendUtf8(char32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

TEST(FindControlOrFormatCharacter, FindsEveryCharacterAtEveryPlace) {
  // Characters of each kind: ASCII controls, C1, BMP format characters,
  // astral ones, and neighbours of ranges that are not in them.
  const char32_t kForbidden[] = {
      0x00,   0x09,   0x0A,    0x1F,    0x7F,    0x85,    0x9F,   0xAD,
      0x061C, 0x200B, 0x200E,  0x200F,  0x202A,  0x202E,  0x2066, 0x2069,
      0xFEFF, 0xFFFB, 0x110BD, 0x1343F, 0x1D173, 0xE0001, 0xE007F};
  const char32_t kAllowed[] = {0x20,   0x7E,   0xA0,    0xAE,    0x20AC,
                               0x2010, 0x2029, 0x2065,  0x20B9,  0xFEFE,
                               0xFFFC, 0x0915, 0x1F600, 0xE0080, 0x110BE};
  for (size_t length = 1; length <= 20; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (char32_t c : kForbidden) {
        std::string text(at, 'a');
        AppendUtf8(c, text);
        text.append(length - at - 1, 'b');
        const auto found = FindControlOrFormatCharacter(text);
        ASSERT_TRUE(found.has_value()) << std::hex << c << " at " << at;
        EXPECT_EQ(*found, c);
      }
      for (char32_t c : kAllowed) {
        std::string text(at, 'a');
        AppendUtf8(c, text);
        text.append(length - at - 1, 'b');
        ASSERT_FALSE(FindControlOrFormatCharacter(text).has_value())
            << std::hex << c << " at " << at;
      }
    }
  }
}

TEST(FindControlOrFormatCharacter, NamesOfEveryKind) {
  EXPECT_FALSE(FindControlOrFormatCharacter(""));
  EXPECT_FALSE(FindControlOrFormatCharacter("Tata Motors Limited"));
  EXPECT_FALSE(FindControlOrFormatCharacter("Bajaj Finserv \xe2\x82\xb9"));
  EXPECT_EQ(FindControlOrFormatCharacter("line\none"), U'\n');
  EXPECT_EQ(FindControlOrFormatCharacter("Infosys Limited\r"), U'\r');
  EXPECT_EQ(FindControlOrFormatCharacter(std::string("nul\0x", 5)), U'\0');
  EXPECT_EQ(FindControlOrFormatCharacter("\x7f delete"), U'\x7f');
  EXPECT_EQ(FindControlOrFormatCharacter("next \xc2\x85line"), U'\x85');
  EXPECT_EQ(FindControlOrFormatCharacter("abc\xe2\x80\xae"
                                         "fdp.exe"),
            U'\x202e');
  // Bytes that are not UTF-8 are no characters: the caller's UTF-8 check
  // refuses them (protobuf's, for string fields).
  EXPECT_FALSE(FindControlOrFormatCharacter("\x80\x20\x21\x7e\xff  "));
}

TEST(ControlOrFormatRule, NamesTheCodePoint) {
  EXPECT_EQ(ControlOrFormatRule(0x202e),
            "must not contain control or format characters (Unicode Cc, Cf); "
            "found U+202E");
  EXPECT_EQ(ControlOrFormatRule(0x9),
            "must not contain control or format "
            "characters (Unicode Cc, Cf); found "
            "U+0009");
  EXPECT_EQ(ControlOrFormatRule(0xE0001),
            "must not contain control or format characters (Unicode Cc, Cf); "
            "found U+E0001");
}

}  // namespace
}  // namespace mdc::domain
