package e2e

// A watch opened while PostgreSQL is down (docs/api.md "Streams", watch
// semantics): 503 with the google.rpc.Status body over HTTP, UNAVAILABLE
// over gRPC, never a stream; once the database is back, the same request
// with the same cursor resumes with nothing missed. The cluster is private
// (startStoppableCluster, admin_health_test.go).

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

func TestFailureWatchOpenedWhilePostgresIsDown(t *testing.T) {
	cluster := startStoppableCluster(t)
	s := StartStackWith(t, StackOptions{DatabaseURL: cluster.url("mdc")})
	_, token := s.NewDeveloper(t, "developer")
	day := uniqueDay(t)
	sym := uniqueSymbol(t, "PD")
	key := func(clock string) string { return "Q " + sym + " " + istKey(t, day, clock) }

	// A cursor taken while the database is up, and a write after it.
	first := openHTTPStream(t, s, "/v1/developer/watch/quotes?symbols="+sym, token, nil)
	hello := newNDJSONReader(t, first).next()
	if hello.Result == nil || hello.Result.Cursor == "" {
		t.Fatalf("first line %+v, want a cursor", hello)
	}
	cursor := hello.Result.Cursor
	first.Body.Close()
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:15:00", price: 1})
	path := "/v1/developer/watch/quotes?symbols=" + sym + "&cursor=" + url.QueryEscape(cursor)
	grpcRequest := &mdcv1.WatchQuotesRequest{Symbols: []string{sym}, Cursor: cursor}
	client := mdcv1.NewStreamServiceClient(dialGRPC(t, s))

	cluster.stop()
	eventually(t, "the gateway sees the database down", func() string {
		if r := s.Do(t, "GET", "/health", "", nil); r.Status != http.StatusServiceUnavailable {
			return r.String()
		}
		return ""
	})

	// Over HTTP, as NDJSON or as Server-Sent Events: an ordinary 503
	// answer with the google.rpc.Status body, not a stream.
	for _, accept := range []string{"", "text/event-stream"} {
		resp := openHTTPStream(t, s, path, token, map[string]string{"Accept": accept})
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("watch (Accept %q) while the database is down: HTTP %d %s, want 503 application/json",
				accept, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var body map[string]json.RawMessage
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("503 body: %v", err)
		}
		var code int
		var message string
		if json.Unmarshal(body["code"], &code) != nil || code != int(codes.Unavailable) ||
			json.Unmarshal(body["message"], &message) != nil || message == "" {
			t.Errorf("503 body %v, want code 14 and a message", body)
		}
		if _, ok := body["result"]; ok {
			t.Errorf("503 body %v is a stream line", body)
		}
		if _, ok := body["error"]; ok {
			t.Errorf("503 body %v is a stream line", body)
		}
	}
	// Over gRPC, straight to the server: UNAVAILABLE before any message.
	down, err := client.WatchQuotes(withToken(streamContext(t), token), grpcRequest)
	if err != nil {
		t.Fatal(err)
	}
	if msg, err := down.Recv(); status.Code(err) != codes.Unavailable {
		t.Fatalf("gRPC watch while the database is down: message %v, error %v; want UNAVAILABLE", msg, err)
	}

	cluster.start()
	if err := s.waitHealthy(); err != nil {
		t.Fatalf("after PostgreSQL came back: %v", err)
	}
	// The same requests, the same cursor: first what was missed, then what
	// commits next.
	httpWatch := newNDJSONReader(t, openHTTPStream(t, s, path, token, nil))
	if again := httpWatch.next(); again.Result == nil || len(again.Result.Events) != 0 {
		t.Fatalf("HTTP watch after the restart: first line %+v, want a message without events", again)
	}
	grpcWatch, err := client.WatchQuotes(withToken(streamContext(t), token), grpcRequest)
	if err != nil {
		t.Fatal(err)
	}
	expectHello(t, grpcWatch)
	postQuotes(t, s, token, sym, devQuote{at: day + "T09:16:00", price: 2})
	want := []string{key("09:15:00"), key("09:16:00")}
	if got := httpWatch.quoteKeys(2); !slices.Equal(got, want) {
		t.Errorf("HTTP watch resumed after the restart: got %v, want %v", got, want)
	}
	if got := keysOf(recvEvents(t, grpcWatch, 2)); !slices.Equal(got, want) {
		t.Errorf("gRPC watch resumed after the restart: got %v, want %v", got, want)
	}
}
