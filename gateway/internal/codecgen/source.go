package codecgen

import (
	"bytes"
	"fmt"
	"go/format"
)

// source is Go source being written, a line at a time.
type source struct{ out bytes.Buffer }

// p writes one line.
func (s *source) p(format string, args ...any) {
	fmt.Fprintf(&s.out, format, args...)
	s.out.WriteByte('\n')
}

// formatted is the source, gofmt'ed; code that does not parse is the
// generator's bug, shown with the text.
func (s *source) formatted() ([]byte, error) {
	src, err := format.Source(s.out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("generated code does not parse: %w\n%s", err, s.out.Bytes())
	}
	return src, nil
}
