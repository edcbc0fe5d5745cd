// Small text helpers shared by the domain parsers and validators.
#ifndef MDC_DOMAIN_TEXT_H_
#define MDC_DOMAIN_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"

namespace mdc::domain {

// Parses a non-empty run of ASCII digits (no sign, no spaces) into *value.
// Returns false for anything else or more than 9 digits.
bool ParseDigits(absl::string_view text, int* value);

// True when `text` holds a control character (C0, i.e. below 0x20, or DEL).
// Names stored as PostgreSQL text must not: text cannot hold NUL at all.
bool HasControlCharacter(absl::string_view text);

// As HasControlCharacter, but tab and newline are allowed: for free text a
// collector scrapes (shortlist names), where NUL, ESC and the like are
// refused but a line break is harmless.
bool HasControlCharacterBesidesTabNewline(absl::string_view text);

// Quotes client text for an error message, cut to a readable length and with
// control characters escaped, so a message never echoes a huge or binary
// input back.
std::string QuoteForMessage(absl::string_view text);

}  // namespace mdc::domain

#endif  // MDC_DOMAIN_TEXT_H_
