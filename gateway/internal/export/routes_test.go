package export

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"mdc/gateway/gen/mdcv1"
)

// fakeExports answers ExportQuotes with `chunks`, then `end` (nil: OK);
// `cancelled` is closed when a call's context ends early.
type fakeExports struct {
	mdcv1.UnimplementedExportServiceServer
	chunks    []*mdcv1.ExportChunk
	end       error
	forever   bool // keep sending until cancelled
	cancelled chan struct{}
}

func (f *fakeExports) ExportQuotes(req *mdcv1.ExportQuotesRequest, s grpc.ServerStreamingServer[mdcv1.ExportChunk]) error {
	if req.GetStartDate() == "" {
		return status.Error(codes.InvalidArgument, "start_date: is required")
	}
	for i := 0; f.forever || i < len(f.chunks); i++ {
		if err := s.Send(f.chunks[i%len(f.chunks)]); err != nil {
			close(f.cancelled)
			return err
		}
	}
	return f.end
}

// serve starts the fake behind an export route handler and returns the
// HTTP server.
func serve(t *testing.T, fake *fakeExports) *httptest.Server {
	t.Helper()
	return serveWith(t, fake, Cuts{}, false, false)
}

// serveWith is serve with cuts, over HTTPS when https is set, offering
// HTTP/2 when h2 is.
func serveWith(t *testing.T, fake *fakeExports, cuts Cuts, h2, https bool) *httptest.Server {
	t.Helper()
	fake.cancelled = make(chan struct{})
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	mdcv1.RegisterExportServiceServer(srv, fake)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///fake", grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	mux := runtime.NewServeMux()
	if err := Register(mux, conn, time.Minute, cuts); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(mux)
	if https {
		ts.EnableHTTP2 = h2
		ts.StartTLS()
	} else {
		ts.Start()
	}
	t.Cleanup(ts.Close)
	return ts
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func TestRouteWritesTheFile(t *testing.T) {
	ts := serve(t, &fakeExports{chunks: []*mdcv1.ExportChunk{{Records: sampleRecords["quotes"]}}})
	resp := get(t, ts.URL+"/v1/developer/export/quotes?startDate=2035-03-06&end_date=2035-03-07")
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="quotes_2035-03-06_2035-03-07.csv"` {
		t.Fatalf("%d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	if lines := strings.Count(string(body), "\n"); lines != 3 {
		t.Errorf("%d lines:\n%s", lines, body)
	}
}

func TestErrorsBeforeTheFileAreStatusAnswers(t *testing.T) {
	ts := serve(t, &fakeExports{})
	for path, field := range map[string]string{
		"/v1/developer/export/quotes?start_date=2035-03-06&format=xml": "format",
		"/v1/developer/export/quotes":                                  "start_date",
	} {
		resp := get(t, ts.URL+path)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var st struct {
			Message string `json:"message"`
		}
		if resp.StatusCode != 400 || json.Unmarshal(body, &st) != nil || !strings.HasPrefix(st.Message, field) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
}

// A failure once the file has begun breaks the answer off: the client
// cannot read it to its end.
func TestAFailureAfterTheStartBreaksTheAnswer(t *testing.T) {
	ts := serve(t, &fakeExports{chunks: []*mdcv1.ExportChunk{{Records: sampleRecords["quotes"]}},
		end: status.Error(codes.Unavailable, "database unavailable")})
	resp := get(t, ts.URL+"/v1/developer/export/quotes?start_date=2035-03-06")
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("the cut answer read as a whole one")
	}
}
