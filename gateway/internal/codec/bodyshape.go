package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"mdc/gateway/internal/apierror"
)

// What a request body may hold before anything is decoded from it, so that
// what one request makes the gateway allocate is bounded by a small factor
// of its size (docs/operations.md, "Memory per request"), and what it
// forwards to the server too. Decoded, a JSON object or list is one Go
// message or slice of about 64-80 bytes however few bytes it took to write:
// 1.39 million empty depth levels, `{},` three bytes each, are a 4 MiB body
// that decoded to 3.3 GB in 16 requests (issue 31). Hence:
const (
	// minBytesPerContainer: a body holds at most one object or list per 8
	// bytes of it, plus maxSmallBodyContainers whatever its size. The
	// smallest useful object of the API, a depth level with one number
	// (`{"price":1},`), takes 12. The allowance lets a small body hold a
	// full depth of empty levels (valid, if useless: the contract test
	// sends them) while costing at most ~80 KB decoded; a large body is
	// held to the ratio.
	minBytesPerContainer   = 8
	maxSmallBodyContainers = 1024
	// maxNesting: no body of the API nests deeper than 6 levels; unknown
	// fields are ignored but still parsed, so a deep one is refused here
	// rather than walked.
	maxNesting = 32
)

// maxDepthLevels is domain/observations.h kMaxDepthLevels: a side of a
// quote's depth holds at most this many levels. It is the one list that
// nests inside another (a quote of the 1,000 of Save Quotes), so it is
// bounded while reading rather than after decoding; the other lists are
// bounded by the body size and checked by the server.
const maxDepthLevels = 200

// depthSides are the keys of the depth lists.
var depthSides = map[string]bool{"buy": true, "sell": true}

// maxContainers is how many objects and lists a body of n bytes may hold.
func maxContainers(n int) int { return maxSmallBodyContainers + n/minBytesPerContainer }

// shapeFrame is one open object or list of checkShape's walk.
type shapeFrame struct {
	list  bool
	key   string // the key whose value this is ("" at the top or in a list)
	index int    // lists: the index of the element being read, -1 before the first
	depth bool   // a depth side: its length is bounded
}

// shapeWalk is the state of checkShape: a JSON tokenizer that reads every
// valid JSON text (any escape, literal or number) without keeping values.
type shapeWalk struct {
	data       []byte
	pos        int
	stack      [maxNesting]shapeFrame
	n          int // open frames
	containers int
	limit      int
}

// checkShape walks the JSON of a body without decoding it (nothing is
// allocated per value) and returns the violation of the rules above, naming
// the field by its JSON path, or nil. It reads every valid JSON text; at
// the first byte that is not valid JSON it stops with nil and leaves the
// error to the decoder, which then also stops there, so a body is refused
// by the rules or by the decoder before anything large is built from it.
func checkShape(data []byte) *apierror.Violation {
	w := shapeWalk{data: data, limit: maxContainers(len(data))}
	return w.run()
}

func (w *shapeWalk) run() *apierror.Violation {
	pendingKey := ""
	for {
		// A value.
		c, ok := w.next()
		if !ok {
			return nil
		}
		switch c {
		case '{', '[':
			if v := w.open(c == '[', pendingKey); v != nil {
				return v
			}
			pendingKey = ""
			c, ok = w.next()
			if !ok {
				return nil
			}
			if (c == ']' && w.top().list) || (c == '}' && !w.top().list) {
				if v := w.close(); v != nil {
					return v
				}
				break // an empty container is a whole value
			}
			if w.top().list {
				w.top().index = 0
				w.pos-- // the element's first byte
				continue
			}
			if c != '"' {
				return nil
			}
			key, ok := w.key()
			if !ok {
				return nil
			}
			pendingKey = key
			continue
		case '"':
			if !w.skipString() {
				return nil
			}
		default:
			w.pos--
			if !w.skipLiteral() {
				return nil
			}
		}
		// After a value: the end, a separator, or the end of containers.
		for {
			if w.n == 0 {
				return nil // the decoder checks that nothing follows
			}
			c, ok = w.next()
			if !ok {
				return nil
			}
			if c == ',' {
				break
			}
			if (c == ']' && w.top().list) || (c == '}' && !w.top().list) {
				if v := w.close(); v != nil {
					return v
				}
				continue
			}
			return nil
		}
		if w.top().list {
			w.top().index++
			continue
		}
		if c, ok = w.next(); !ok || c != '"' {
			return nil
		}
		key, ok := w.key()
		if !ok {
			return nil
		}
		pendingKey = key
	}
}

func (w *shapeWalk) top() *shapeFrame { return &w.stack[w.n-1] }

// next returns the next byte after whitespace and moves past it.
func (w *shapeWalk) next() (byte, bool) {
	for w.pos < len(w.data) {
		c := w.data[w.pos]
		w.pos++
		switch c {
		case ' ', '\t', '\n', '\r':
		default:
			return c, true
		}
	}
	return 0, false
}

// open starts an object or list, the value of key.
func (w *shapeWalk) open(list bool, key string) *apierror.Violation {
	w.containers++
	if w.containers > w.limit {
		return &apierror.Violation{Field: w.path(w.n), Description: fmt.Sprintf(
			"the body holds more objects and lists than its size allows: at most one per %d bytes "+
				"(a list of empty objects is no observation)", minBytesPerContainer)}
	}
	if w.n == maxNesting {
		return &apierror.Violation{Field: w.path(w.n), Description: fmt.Sprintf("nests deeper than %d levels", maxNesting)}
	}
	w.stack[w.n] = shapeFrame{list: list, key: key, index: -1, depth: list && depthSides[key]}
	w.n++
	return nil
}

// close ends the innermost object or list.
func (w *shapeWalk) close() *apierror.Violation {
	f := w.top()
	if f.depth && f.index+1 > maxDepthLevels {
		return &apierror.Violation{Field: w.path(w.n), Description: fmt.Sprintf(
			"has %d levels; at most %d", f.index+1, maxDepthLevels)}
	}
	w.n--
	return nil
}

// path is the JSON path of the first upTo open frames, as the server names
// fields: data.quotes[3].quoteData.payload.depth.buy.
func (w *shapeWalk) path(upTo int) string {
	var b strings.Builder
	for i := 0; i < upTo; i++ {
		f := w.stack[i]
		if f.key != "" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		}
		if f.list && i+1 < upTo && f.index >= 0 {
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
		}
	}
	return b.String()
}

// key reads an object key after its opening quote, and the colon after it.
func (w *shapeWalk) key() (string, bool) {
	start := w.pos - 1
	if !w.skipString() {
		return "", false
	}
	raw := w.data[start:w.pos]
	var key string
	if bytes.IndexByte(raw, '\\') < 0 {
		key = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &key); err != nil {
		return "", false
	}
	if c, ok := w.next(); !ok || c != ':' {
		return "", false
	}
	if len(key) > maxShownKey {
		key = key[:maxShownKey] + "..."
	}
	return key, true
}

// maxShownKey bounds a key in a path (unknown keys are any length).
const maxShownKey = 64

// skipString moves past a string whose opening quote was read.
func (w *shapeWalk) skipString() bool {
	for w.pos < len(w.data) {
		switch w.data[w.pos] {
		case '"':
			w.pos++
			return true
		case '\\':
			w.pos += 2
		default:
			w.pos++
		}
	}
	return false
}

// skipLiteral moves past a number, true, false or null (checked loosely:
// the decoder refuses a malformed one).
func (w *shapeWalk) skipLiteral() bool {
	start := w.pos
	for w.pos < len(w.data) {
		c := w.data[w.pos]
		if (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' || c == '.' || c == 'E' {
			w.pos++
			continue
		}
		break
	}
	return w.pos > start
}
