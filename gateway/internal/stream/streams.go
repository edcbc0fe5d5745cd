// Package stream answers the streaming routes over HTTP: NDJSON, or
// Server-Sent Events when the client asks for them.
package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"mdc/gateway/internal/routes"
)

// The streaming routes (mdc.v1.StreamService): grpc-gateway answers them
// with one JSON object per line, {"result": <MarketEvents>} per message and
// {"error": <google.rpc.Status>} when the stream fails after it started
// (docs/api.md "Streams over HTTP"). A stream that fails before its first
// message is answered as any failed call. Handler makes the answers
// application/x-ndjson, or Server-Sent Events when the request accepts
// text/event-stream, and lifts the server's read and write timeouts, which
// would otherwise cut a watch after a minute.

const (
	ndjsonType = "application/x-ndjson"
	sseType    = "text/event-stream"
)

// acceptsEventStream tells whether the Accept header asks for SSE.
func acceptsEventStream(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			mediaType, _, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(mediaType), sseType) {
				return true
			}
		}
	}
	return false
}

// Handler serves the streaming routes of next (those of table whose RPC
// streams its answer; mux, m: for errors).
func Handler(next http.Handler, table *routes.Table, m runtime.Marshaler, mux *runtime.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !table.Streams(r.Method, r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		// A watch lasts as long as the client wants it: no deadline.
		_ = rc.SetReadDeadline(time.Time{})
		_ = rc.SetWriteDeadline(time.Time{})
		sw := &streamWriter{ResponseWriter: w, rc: rc, sse: acceptsEventStream(r)}
		next.ServeHTTP(sw, r)
		switch {
		case sw.failed:
			sw.answerFailure(r.Context(), m, mux, r)
		case !sw.started:
			// No message at all (a replay of an empty day): still a stream.
			sw.start(http.StatusOK)
		}
	})
}

// streamWriter sets the content type of a stream's answer and, for SSE,
// turns each line into one event: `data: <line>` for a message,
// `event: error` + `data: <line>` for the error that ends a stream.
type streamWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	sse     bool
	started bool
	line    []byte // SSE: the part of a line not yet written
	// The stream failed before its first message: grpc-gateway's
	// {"error": ...} line, kept to be answered as a plain error.
	failed       bool
	failedStatus int
	errLine      []byte
}

func (s *streamWriter) WriteHeader(code int) {
	if s.started || s.failed {
		return
	}
	if code != http.StatusOK {
		s.failed = true
		s.failedStatus = code
		return
	}
	s.start(code)
}

// answerFailure answers a stream that failed before its first message as
// any failed call (status, headers such as WWW-Authenticate, the
// google.rpc.Status body), not as a stream. grpc-gateway wrote either the
// gateway's own error answer (a request it refused before calling the
// server), passed on as it is, or a stream's {"error": ...} line, which goes
// through the gateway's error handler.
func (s *streamWriter) answerFailure(ctx context.Context, m runtime.Marshaler, mux *runtime.ServeMux, r *http.Request) {
	var chunk struct {
		Error json.RawMessage `json:"error"`
	}
	var st spb.Status
	if json.Unmarshal(s.errLine, &chunk) != nil || chunk.Error == nil || protojson.Unmarshal(chunk.Error, &st) != nil {
		s.ResponseWriter.WriteHeader(s.failedStatus)
		_, _ = s.ResponseWriter.Write(s.errLine)
		return
	}
	s.Header().Del("Transfer-Encoding")
	// The mux's error handler: the gateway's.
	runtime.HTTPError(ctx, mux, m, s.ResponseWriter, r, status.ErrorProto(&st))
}

func (s *streamWriter) start(code int) {
	s.started = true
	if code == http.StatusOK {
		h := s.Header()
		if s.sse {
			h.Set("Content-Type", sseType)
			h.Set("Cache-Control", "no-cache")
			// No buffering by a reverse proxy (nginx) in front of the gateway.
			h.Set("X-Accel-Buffering", "no")
		} else {
			h.Set("Content-Type", ndjsonType)
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *streamWriter) Write(p []byte) (int, error) {
	if s.failed {
		s.errLine = append(s.errLine, p...)
		return len(p), nil
	}
	if !s.started {
		s.start(http.StatusOK)
	}
	if !s.sse {
		return s.ResponseWriter.Write(p)
	}
	s.line = append(s.line, p...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := s.writeEvent(s.line[:i]); err != nil {
			return 0, err
		}
		s.line = s.line[i+1:]
	}
}

func (s *streamWriter) writeEvent(line []byte) error {
	var b bytes.Buffer
	if bytes.HasPrefix(line, []byte(`{"error"`)) {
		b.WriteString("event: error\n")
	}
	b.WriteString("data: ")
	b.Write(line)
	b.WriteString("\n\n")
	_, err := s.ResponseWriter.Write(b.Bytes())
	return err
}

// Flush sends what was written (grpc-gateway flushes after each message).
func (s *streamWriter) Flush() {
	if !s.failed {
		_ = s.rc.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *streamWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
