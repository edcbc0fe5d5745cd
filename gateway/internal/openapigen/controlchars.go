package openapigen

import (
	"fmt"
	"strings"
	"unicode"
)

// noControlPattern is the schema pattern of names and free text: no
// character of Unicode category Cc or Cf, the server's rule
// (domain/text.h FindControlOrFormatCharacter, Unicode 15's table), for the
// characters of the Basic Multilingual Plane, as \uXXXX escapes.
//
// The 13 Cf characters beyond it (U+110BD, U+E0001, the tag characters
// U+E0020-E007F, ...) are left out on purpose: JSON Schema patterns are
// ECMA-262 without the u flag, where an astral character is two UTF-16
// units and a range of them is no valid class at all, and listed one by one
// they made schemathesis generate names nine times slower (its contract run
// took minutes longer). The contract run's hooks drop them from the names of
// valid requests instead (tests/contract/hooks.py), and docs/api.md states
// the whole rule.
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
