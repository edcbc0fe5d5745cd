package observe

import (
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"mdc/gateway/internal/jsonnum"
)

// The access log line is written once per request, so it has an encoder
// of its own: slog's JSON handler puts every attribute through ReplaceAttr
// and encodes the float latency with encoding/json's reflection, which made
// the line a tenth of the gateway's CPU per collector write (issue 25,
// docs/performance.md). accessLine writes the bytes slog's handler of
// NewLogger would write for the same record (accessline_test.go compares
// them), through the same lineWriter, so lines never interleave.

// lineWriter serializes the writes of NewLogger's handler and of the
// access line encoder: one Write per line.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// jsonHandler is NewLogger's handler: slog's JSON handler, and the writer
// the access line encoder shares with it.
type jsonHandler struct {
	slog.Handler
	out *lineWriter
}

// accessLine is one request's log line (observe.Requests).
type accessLine struct {
	level     slog.Level
	requestID string
	method    string
	route     string
	status    int
	latencyMS float64
	err       string // "" unless level is error
	runID     string // "" when the client sent none
	retries   int
	retried   string // the first retried attempt's error, when retries > 0
}

var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// write encodes l as NewLogger's handler would encode the record
// "request" with l's attributes at t, and writes it.
func (h *jsonHandler) write(t time.Time, l *accessLine) {
	bp := linePool.Get().(*[]byte)
	b := appendAccessLine((*bp)[:0], t, l)
	_, _ = h.out.Write(b)
	*bp = b
	linePool.Put(bp)
}

func appendAccessLine(b []byte, t time.Time, l *accessLine) []byte {
	b = append(b, `{"time":"`...)
	b = t.UTC().AppendFormat(b, timeLayout)
	b = append(b, `","level":"`...)
	b = append(b, levelName(l.level)...)
	b = append(b, `","msg":"request","request_id":`...)
	b = appendJSONString(b, l.requestID)
	b = append(b, `,"method":`...)
	b = appendJSONString(b, l.method)
	b = append(b, `,"route":`...)
	b = appendJSONString(b, l.route)
	b = append(b, `,"status":`...)
	b = strconv.AppendInt(b, int64(l.status), 10)
	b = append(b, `,"latency_ms":`...)
	b = jsonnum.Append(b, l.latencyMS)
	if l.level >= slog.LevelError {
		b = append(b, `,"error":`...)
		b = appendJSONString(b, l.err)
	}
	if l.runID != "" {
		b = append(b, `,"run_id":`...)
		b = appendJSONString(b, l.runID)
	}
	if l.retries > 0 {
		b = append(b, `,"retries":`...)
		b = strconv.AppendInt(b, int64(l.retries), 10)
		b = append(b, `,"retried_error":`...)
		b = appendJSONString(b, l.retried)
	}
	return append(b, "}\n"...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString is slog's JSON string encoding: quotes, backslashes
// and control characters escaped (\n, \r, \t by name), invalid UTF-8 as
// \ufffd, U+2028 and U+2029 escaped; <, > and & kept.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
