package openapigen

import (
	"fmt"
	"strings"
	"unicode"
)

// noControlPattern is the schema pattern of names and free text:
// no character of Unicode category Cc or Cf, the server's rule
// (domain/text.h FindControlOrFormatCharacter, Unicode 15's table).
//
// The class lists BMP ranges as \uXXXX escapes and astral characters
// literally: JSON Schema patterns are ECMA-262 without the u flag, where a
// literal astral character in a class stands for its two UTF-16 halves, so
// the pattern refuses a little more there than the server (a value it
// allows is always accepted), while tools that read patterns by code point
// (Python's re, under schemathesis) refuse exactly those characters.
var noControlPattern = controlOrFormatFreePattern()

func controlOrFormatFreePattern() string {
	var b strings.Builder
	b.WriteString("^[^")
	for _, table := range []*unicode.RangeTable{unicode.Cc, unicode.Cf} {
		for _, r := range table.R16 {
			if r.Stride == 1 {
				writeRun(&b, rune(r.Lo), rune(r.Hi))
				continue
			}
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				writeRun(&b, c, c)
			}
		}
		for _, r := range table.R32 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				b.WriteRune(c)
			}
		}
	}
	b.WriteString("]*$")
	return b.String()
}

// writeRun writes the BMP range [lo, hi] of a character class.
func writeRun(b *strings.Builder, lo, hi rune) {
	if lo == hi {
		fmt.Fprintf(b, `\u%04X`, lo)
		return
	}
	fmt.Fprintf(b, `\u%04X-\u%04X`, lo, hi)
}
