package export

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/gen/mdcv1"
)

// failing is an export whose server fails after its first message.
func failing() *fakeExports {
	return &fakeExports{chunks: []*mdcv1.ExportChunk{{Records: sampleRecords["quotes"]}},
		end: status.Error(codes.Unavailable, "database unavailable")}
}

// whole is an export that ends well: one message, two quotes.
func whole() *fakeExports {
	return &fakeExports{chunks: []*mdcv1.ExportChunk{{Records: sampleRecords["quotes"]}}}
}

// rawGet sends a GET in HTTP/1.x version proto on a connection of its own
// and reads until the connection ends: what arrived, and how it ended.
func rawGet(t *testing.T, addr, path, proto string) ([]byte, error) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET " + path + " " + proto + "\r\nHost: x\r\nAuthorization: Bearer dev-token\r\nConnection: close\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	return io.ReadAll(conn)
}

// Over HTTP/1.1 and HTTP/1.0 a cut answer ends with a reset connection,
// never a clean close: an HTTP/1.0 answer has no chunks, so a clean close
// would read as the end of the file.
func TestACutAnswerEndsWithAReset(t *testing.T) {
	for _, proto := range []string{"HTTP/1.1", "HTTP/1.0"} {
		t.Run(proto, func(t *testing.T) {
			ts := serveWith(t, failing(), Cuts{}, false, false)
			got, err := rawGet(t, ts.Listener.Addr().String(), "/v1/developer/export/quotes?start_date=2035-03-06", proto)
			if !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("the answer ended with %v, want a reset:\n%s", err, got)
			}
			if !bytes.HasPrefix(got, []byte(proto+" 200")) || bytes.Contains(got, []byte("\r\n0\r\n")) {
				t.Errorf("the cut answer has its status and no last chunk:\n%s", got)
			}
		})
	}
}

// Under TLS too the connection is reset, with no close_notify first (the
// clean end of a close-delimited HTTP/1.0 body).
func TestACutAnswerOverTLSEndsWithAReset(t *testing.T) {
	ts := serveWith(t, failing(), Cuts{}, false, true)
	conn, err := tls.Dial("tcp", ts.Listener.Addr().String(), &tls.Config{InsecureSkipVerify: true}) // the test's own server
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, "GET /v1/developer/export/quotes?start_date=2035-03-06 HTTP/1.0\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(conn)
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("the answer ended with %v, want a reset:\n%s", err, got)
	}
}

// Over HTTP/2 a cut answer's stream is reset: the body ends in an error.
func TestACutAnswerOverHTTP2IsAResetStream(t *testing.T) {
	ts := serveWith(t, failing(), Cuts{}, true, true)
	resp, err := ts.Client().Get(ts.URL + "/v1/developer/export/quotes?start_date=2035-03-06")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.ProtoMajor != 2 || resp.StatusCode != 200 {
		t.Fatalf("%s %d", resp.Proto, resp.StatusCode)
	}
	if _, err := io.ReadAll(resp.Body); err == nil || !strings.Contains(err.Error(), "stream error") {
		t.Fatalf("the body ended with %v, want a reset stream", err)
	}
	if got := resp.Trailer.Get(RowsTrailer); got != "" {
		t.Errorf("a cut answer with %s: %s", RowsTrailer, got)
	}
}

// A whole file ends with the count of its rows in the trailer, over
// HTTP/1.1 and HTTP/2 alike.
func TestAWholeFileEndsWithItsRowCount(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		for format, rows := range map[string]string{"csv": "2", "ndjson": "2", "parquet": "2"} {
			ts := serveWith(t, whole(), Cuts{}, h2, h2)
			resp, err := ts.Client().Get(ts.URL + "/v1/developer/export/quotes?start_date=2035-03-06&format=" + format)
			if err != nil {
				t.Fatal(err)
			}
			// Go's client moves the Trailer header's names into Trailer.
			if _, declared := resp.Trailer[RowsTrailer]; !declared {
				t.Errorf("%s: %s not declared in the Trailer header: %v", format, RowsTrailer, resp.Trailer)
			}
			if _, err := io.ReadAll(resp.Body); err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if got := resp.Trailer.Get(RowsTrailer); got != rows {
				t.Errorf("%s %s: %s = %q, want %s", resp.Proto, format, RowsTrailer, got, rows)
			}
		}
	}
}

// The cut is logged (one line at error level: route, format, whose token,
// rows and bytes sent, why) and counted.
func TestACutIsLoggedAndCounted(t *testing.T) {
	var (
		mu     sync.Mutex
		logged bytes.Buffer
		counts []string
	)
	cuts := Cuts{
		Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logged}, nil)),
		Count: func(route string) {
			mu.Lock()
			defer mu.Unlock()
			counts = append(counts, route)
		},
	}
	// Enough rows that some leave the encoder's buffer before the failure.
	big := &mdcv1.ExportChunk{}
	for range 500 {
		big.Records = append(big.Records, sampleRecords["quotes"]...)
	}
	fake := failing()
	fake.chunks = []*mdcv1.ExportChunk{big}
	ts := serveWith(t, fake, cuts, false, false)
	if _, err := rawGet(t, ts.Listener.Addr().String(), "/v1/developer/export/quotes?start_date=2035-03-06&format=ndjson", "HTTP/1.1"); err == nil {
		t.Fatal("the cut answer ended cleanly")
	}
	mu.Lock()
	defer mu.Unlock()
	var line map[string]any
	if err := json.Unmarshal(logged.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, logged.String())
	}
	want := map[string]any{
		"level": "ERROR", "msg": "export cut", "route": "/v1/developer/export/quotes", "format": "ndjson",
		"developer_token": tokenPrint("Bearer dev-token"), "proto": "HTTP/1.1",
	}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v (%s)", k, line[k], v, logged.String())
		}
	}
	if n, _ := line["rows_sent"].(float64); n <= 0 || n >= 1000 {
		t.Errorf("rows_sent %v of 1000", line["rows_sent"])
	}
	if b, _ := line["bytes_sent"].(float64); b <= 0 {
		t.Errorf("bytes_sent %v", line["bytes_sent"])
	}
	if r, _ := line["reason"].(string); !strings.Contains(r, "database unavailable") {
		t.Errorf("reason %q", r)
	}
	if len(counts) != 1 || counts[0] != "/v1/developer/export/quotes" {
		t.Errorf("counted %v", counts)
	}
	if len(tokenPrint("Bearer dev-token")) != 16 || tokenPrint("") != "" {
		t.Errorf("token print %q", tokenPrint("Bearer dev-token"))
	}
}

// lockedWriter lets the test read what the handler's goroutine logged.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A client that hangs up mid-download cancels the server's stream, and is
// no cut of ours: nothing logged, nothing counted.
func TestAClientThatLeavesIsNoCut(t *testing.T) {
	var (
		mu     sync.Mutex
		logged bytes.Buffer
		counts int
	)
	cuts := Cuts{
		Logger: slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logged}, nil)),
		Count: func(string) {
			mu.Lock()
			defer mu.Unlock()
			counts++
		},
	}
	big := &mdcv1.ExportChunk{}
	for range 500 {
		big.Records = append(big.Records, sampleRecords["quotes"]...)
	}
	fake := &fakeExports{chunks: []*mdcv1.ExportChunk{big}, forever: true}
	ts := serveWith(t, fake, cuts, false, false)
	resp := get(t, ts.URL+"/v1/developer/export/quotes?start_date=2035-03-06")
	if _, err := io.CopyN(io.Discard, resp.Body, 1<<16); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	select {
	case <-fake.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream went on after the client left")
	}
	ts.Close() // waits for the handler: its decision to log is made
	mu.Lock()
	defer mu.Unlock()
	if logged.Len() != 0 || counts != 0 {
		t.Errorf("a client's leaving logged %q, counted %d", logged.String(), counts)
	}
}
