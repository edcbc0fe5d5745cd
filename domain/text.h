// Small text helpers shared by the domain parsers and validators.
#ifndef MDC_DOMAIN_TEXT_H_
#define MDC_DOMAIN_TEXT_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// Parses a non-empty run of ASCII digits (no sign, no spaces) into *value.
// Returns false for anything else or more than 9 digits.
bool ParseDigits(absl::string_view text, int* value);

// The first Unicode control (category Cc: C0, DEL, C1 such as U+0085) or
// format (category Cf: soft hyphen, U+200B-200F, the bidirectional
// overrides and isolates U+202A-202E and U+2066-2069, U+FEFF, tags, ...)
// character of `text`, read as UTF-8; nullopt when it has none. Names and
// free text refuse them all: NUL cannot be stored in PostgreSQL text, a
// line break or tab breaks CSV rows and log lines, and the invisible format
// characters make a name display as something it is not (U+202E turns
// "exe.txt" around). The table is Unicode 15's (tests/e2e checks every
// code point against Go's unicode.Cc and unicode.Cf). Bytes that are not
// UTF-8 are not characters and are left to the UTF-8 check of the caller.
std::optional<char32_t> FindControlOrFormatCharacter(absl::string_view text);

// True when `c` is in Unicode category Cc or Cf.
bool IsControlOrFormatCharacter(char32_t c);

// The rule a name breaks when FindControlOrFormatCharacter found `c`:
// "must not contain control or format characters (Unicode Cc, Cf); found
// U+202E".
std::string ControlOrFormatRule(char32_t c);

// Quotes client text for an error message, cut to a readable length and with
// control characters escaped, so a message never echoes a huge or binary
// input back.
std::string QuoteForMessage(absl::string_view text);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TEXT_H_
