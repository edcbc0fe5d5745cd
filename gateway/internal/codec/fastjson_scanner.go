package codec

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// fastScanner reads the JSON of a request body for the generated decoders
// of fastjson_gen.go (fastjson_decoder.go). It accepts only a subset of what
// protojson accepts, and within that subset reads every token exactly as
// protojson's tokenizer does (google.golang.org/protobuf/internal/encoding/
// json). Anything else, valid or not, makes the scanner decline: it sets
// bad, a sticky flag, and from then on every read returns a zero value and
// stops loops, so the decoders need not check after each read. A declined
// body goes to protojson, which then produces today's result or error.
//
// Subset: objects, arrays, strings, numbers, and null where the decoder
// asks for it with null (the value of a field). true and false are declined
// (the messages here have no bool fields), as are escapes in object keys.
type fastScanner struct {
	data []byte
	// text is data as one string, so string values without escapes are
	// substrings of it rather than one allocation each. It keeps the body
	// alive as long as the decoded message, which lives for the request.
	text string
	pos  int
	// fresh: an object or array was just opened, so no comma precedes
	// its first member or element.
	fresh bool
	// bad: the body is declined.
	bad bool
	// containers counts the objects and lists opened; past limit the body
	// is declined, and checkShape then refuses it (bodyshape.go).
	containers, limit int
}

func newFastScanner(data []byte) fastScanner {
	// text shares data's bytes rather than copying the whole body again: the
	// body buffer (readBody's) is never written after it is read.
	return fastScanner{data: data, text: unsafe.String(unsafe.SliceData(data), len(data)), limit: maxContainers(len(data))}
}

// opened counts an object or list against the limit of the body's size.
func (s *fastScanner) opened() {
	s.containers++
	if s.containers > s.limit {
		s.decline()
	}
}

func (s *fastScanner) decline() { s.bad = true }

// skipSpace skips the four whitespace bytes of JSON, the same ones
// protojson skips.
func (s *fastScanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace, 0 at the end or when bad.
// As no JSON token starts with a NUL byte, callers need not tell a NUL in
// the data from the end.
func (s *fastScanner) peek() byte {
	if s.bad {
		return 0
	}
	s.skipSpace()
	if s.pos == len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// consume skips whitespace and the byte c, declining when the next byte is
// not c.
func (s *fastScanner) consume(c byte) {
	if s.peek() != c {
		s.decline()
		return
	}
	s.pos++
}

// end declines unless only whitespace is left: protojson refuses anything
// after the top-level value. (Not peek() != 0: that would take a NUL byte
// for the end.)
func (s *fastScanner) end() {
	s.skipSpace()
	if s.pos != len(s.data) {
		s.decline()
	}
}

// openObject reads the { of an object. Iterate its members with member.
func (s *fastScanner) openObject() {
	s.consume('{')
	s.opened()
	s.fresh = true
}

// member moves to the next member of the object being read and returns its
// key (a slice of the body), or false after reading the closing }. The
// caller then reads the member's value.
//
// A } is always a valid end here: right after { or right after a value. A
// trailing comma ({"a":1,}) is consumed as a separator and then declined
// by key, which finds } where a key must be.
func (s *fastScanner) member() ([]byte, bool) {
	if s.peek() == '}' {
		s.pos++
		s.fresh = false
		return nil, false
	}
	if !s.fresh {
		s.consume(',')
	}
	s.fresh = false
	key := s.key()
	s.consume(':')
	return key, !s.bad
}

// key reads an object key. A key with an escape is declined: protojson
// would unescape it, and no field name here needs one. Other bytes are not
// checked: the decoders compare keys with ASCII field names only, so a key
// with a control character or invalid UTF-8 (refused by protojson) is
// declined as an unknown field.
func (s *fastScanner) key() []byte {
	if s.peek() != '"' {
		s.decline()
		return nil
	}
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '"':
			s.pos = i + 1
			return s.data[start:i]
		case '\\':
			s.decline()
			return nil
		}
	}
	s.decline()
	return nil
}

// openArray reads the [ of an array. Iterate its elements with element.
func (s *fastScanner) openArray() {
	s.consume('[')
	s.opened()
	s.fresh = true
}

// element reports whether another element follows (the caller then reads
// it), or false after reading the closing ]. As in member, a trailing comma
// ([1,]) is declined by the caller's read of the element, which finds ].
func (s *fastScanner) element() bool {
	if s.peek() == ']' {
		s.pos++
		s.fresh = false
		return false
	}
	if !s.fresh {
		s.consume(',')
	}
	s.fresh = false
	return !s.bad
}

// null reads the literal null if it comes next, and reports whether it
// did. Anything else is left for the caller's read of a value. protojson's
// tokenizer also requires a delimiter after null (nullx is an error); here
// the caller's next read (a comma or }) requires one, and declines
// anything else.
func (s *fastScanner) null() bool {
	if s.peek() != 'n' || len(s.data)-s.pos < 4 || s.text[s.pos:s.pos+4] != "null" {
		return false
	}
	s.pos += 4
	return true
}

// number reads a JSON number (RFC 8259 grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?
// ([eE][+-]?[0-9]+)?) as a double, with strconv.ParseFloat on the same
// bytes protojson parses. Out-of-range values (ParseFloat's ErrRange, where
// protojson errors) are declined. A number must be followed by a delimiter;
// the caller's next read (a comma, } or ]) checks that.
func (s *fastScanner) number() float64 {
	if s.peek() == 0 {
		s.decline()
		return 0
	}
	d := s.data
	start, i := s.pos, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = skipDigits(d, i+1)
	default:
		// Not a number: a string ("1.5", "NaN"), null, true, an object...
		s.decline()
		return 0
	}
	if i < len(d) && d[i] == '.' {
		j := skipDigits(d, i+1)
		if j == i+1 {
			s.decline() // "1." is not JSON
			return 0
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := skipDigits(d, i)
		if j == i {
			s.decline() // "1e", "1e+" are not JSON
			return 0
		}
		i = j
	}
	f, err := strconv.ParseFloat(s.text[start:i], 64)
	if err != nil {
		s.decline()
		return 0
	}
	s.pos = i
	return f
}

func skipDigits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// str reads a string value. Like protojson it refuses (here: declines)
// control characters and invalid UTF-8, and unescapes \" \\ \/ \b \f \n \r
// \t and \uXXXX, where a surrogate must be the first half of a valid pair
// written as two \u escapes.
func (s *fastScanner) str() string {
	if s.peek() != '"' {
		s.decline() // a number, null, an object...
		return ""
	}
	start := s.pos + 1
	ascii := true
	for i := start; i < len(s.data); i++ {
		c := s.data[i]
		switch {
		case c == '"':
			if !ascii && !utf8.Valid(s.data[start:i]) {
				s.decline()
				return ""
			}
			s.pos = i + 1
			return s.text[start:i]
		case c == '\\':
			return s.escapedStr(start, i)
		case c < ' ':
			s.decline()
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	s.decline() // no closing quote
	return ""
}

// escapedStr finishes a string whose first escape is at i; the string's
// contents start at start.
func (s *fastScanner) escapedStr(start, i int) string {
	d := s.data
	out := make([]byte, 0, i-start+16)
	// chunk is where the run of bytes copied as they are starts.
	chunk := start
	for i < len(d) {
		c := d[i]
		switch {
		case c == '"':
			out = append(out, d[chunk:i]...)
			if !utf8.Valid(out) {
				s.decline()
				return ""
			}
			s.pos = i + 1
			return string(out)
		case c < ' ':
			s.decline()
			return ""
		case c != '\\':
			i++
			continue
		}
		out = append(out, d[chunk:i]...)
		if i+1 >= len(d) {
			s.decline()
			return ""
		}
		switch e := d[i+1]; e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := unicodeEscape(d[i:])
			if n == 0 {
				s.decline()
				return ""
			}
			out = utf8.AppendRune(out, r)
			i += n
			chunk = i
			continue
		default:
			s.decline()
			return ""
		}
		i += 2
		chunk = i
	}
	s.decline()
	return ""
}

// unicodeEscape decodes the \uXXXX escape (or surrogate pair of two) at the
// start of b and returns the rune and the bytes it takes, 0 when it is not
// one protojson accepts.
func unicodeEscape(b []byte) (rune, int) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0
	}
	if !utf16.IsSurrogate(r) {
		return r, 6
	}
	// protojson requires the next escape to complete the pair, and refuses
	// a lone or reversed half (DecodeRune gives U+FFFD then).
	lo, ok := hex4(b[6:])
	if !ok {
		return 0, 0
	}
	r = utf16.DecodeRune(r, lo)
	if r == utf8.RuneError {
		return 0, 0
	}
	return r, 12
}

// hex4 decodes "\uXXXX" at the start of b (any case hex digits, as
// strconv.ParseUint(.., 16, 16) in protojson accepts).
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		var v byte
		switch {
		case '0' <= c && c <= '9':
			v = c - '0'
		case 'a' <= c && c <= 'f':
			v = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	return r, true
}
