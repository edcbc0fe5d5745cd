package e2e

// Streams over HTTP (docs/api.md "Streams over HTTP"): newline-delimited
// JSON, Server-Sent Events with Accept: text/event-stream, and errors.

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// openHTTPStream sends GET path with the token and extra headers to the
// gateway; the caller reads and closes the body.
func openHTTPStream(t *testing.T, s *Stack, path, token string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(streamContext(t), http.MethodGet, s.BaseURL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// streamLine is one line of an NDJSON stream.
type streamLine struct {
	Result *struct {
		Events []map[string]any `json:"events"`
		Cursor string           `json:"cursor"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func TestReplayAndWatchOverHTTP(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	day := uniqueDay(t)
	want := replayDayData(t, s, token, day)

	// Replay as NDJSON: one {"result"} per message, then the end.
	resp := openHTTPStream(t, s, "/v1/developer/replay?date="+day, token, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("replay: HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var got []string
	scanner := bufio.NewScanner(resp.Body)
	scanner.Buffer(nil, 64<<20)
	for scanner.Scan() {
		var line streamLine
		if err := json.Unmarshal(scanner.Bytes(), &line); err != nil || line.Result == nil {
			t.Fatalf("line %q: %v", scanner.Text(), err)
		}
		for _, e := range line.Result.Events {
			if q, ok := e["quote"].(map[string]any); ok {
				got = append(got, "Q "+q["nseSymbol"].(string)+" "+q["timestamp"].(string))
			} else if n, ok := e["nifty"].(map[string]any); ok {
				got = append(got, "N "+n["timestamp"].(string))
			} else if l, ok := e["shortlist"].(map[string]any); ok {
				got = append(got, "S "+l["shortlistType"].(string)+" "+l["scope"].(string)+" "+l["timestamp"].(string))
			}
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("replay over HTTP:\n got %v\nwant %v", got, want)
	}

	// A watch as Server-Sent Events: the first event says it is live, the
	// next carries the quote written after it.
	sym := uniqueSymbol(t, "H")
	resp = openHTTPStream(t, s, "/v1/developer/watch/quotes?symbols="+sym+"&symbols=OTHER", token, map[string]string{"Accept": "text/event-stream"})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("watch: HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	reader := bufio.NewReader(resp.Body)
	event := func() streamLine { t.Helper(); return readSSE(t, reader) }
	if hello := event(); hello.Result == nil || len(hello.Result.Events) != 0 || hello.Result.Cursor == "" {
		t.Fatalf("first event: %+v", hello)
	}
	postQuotes(t, s, token, sym, devQuote{at: day + "T11:00:00", price: 3})
	live := event()
	if live.Result == nil || len(live.Result.Events) != 1 {
		t.Fatalf("second event: %+v", live)
	}
	if q := live.Result.Events[0]["quote"].(map[string]any); q["nseSymbol"] != sym {
		t.Errorf("event quote %v, want symbol %s", q, sym)
	}

	// An error before the first message is answered as any failed call:
	// its HTTP status and the google.rpc.Status body naming the field.
	resp = openHTTPStream(t, s, "/v1/developer/replay?date=2024-13-01", token, nil)
	if resp.StatusCode != 400 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("bad date: HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var bad struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&bad); err != nil || bad.Code != 3 || !strings.Contains(bad.Message, "date") {
		t.Fatalf("bad date body: %+v %v", bad, err)
	}
	// A watch with the backtest clock set: 412, as the contract maps
	// FAILED_PRECONDITION.
	resp = openHTTPStream(t, s, "/v1/developer/watch/nifty", token, map[string]string{"X-Current-Timestamp": day + "T10:00:00"})
	if resp.StatusCode != 412 {
		t.Fatalf("watch with the clock: HTTP %d", resp.StatusCode)
	}
	// A replay of a day without records: a stream without lines.
	resp = openHTTPStream(t, s, "/v1/developer/replay?date=1990-01-01&kinds=nifty", token, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("empty replay: HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}
