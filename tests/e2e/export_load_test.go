package e2e

// Exports of many rows: a client that goes away stops the server's work,
// a paused export holds back neither writes nor watches, and a
// 2-million-row export keeps both processes' memory bounded.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fillQuotes stores n quotes of 500 symbols on trading day `day` (IST),
// one per symbol a second from 09:15, with SQL: far faster than the API,
// and the same rows (quote_data is a serialized mdc.v1.QuoteData with
// status SUCCESS and last_price and volume in its payload).
func fillQuotes(t *testing.T, s *Stack, day string, n int) {
	t.Helper()
	// QuoteData{status: SUCCESS, payload: {last_price: 101.5, volume: 1000}}:
	// field 1 varint 1; field 2 (length 18) holding fields 1 and 4, doubles.
	s.SQL(t, fmt.Sprintf(`INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, volume, quote_data)
		SELECT 'LD' || (g %% 500), timestamptz '%s 09:15:00+05:30' + (g / 500) * interval '1 second', date '%s',
		       101.5, 1000, '\x08011212090000000000605940210000000000408f40'::bytea
		FROM generate_series(0, %d) g`, day, day, n-1))
}

// serverLogLine waits for the first line of the server's log after byte
// `from` holding every part, and returns it decoded.
func serverLogLine(t *testing.T, s *Stack, from int64, parts ...string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(s.server.logPath)
		if from <= int64(len(data)) {
			data = data[from:]
		}
		for _, line := range strings.Split(string(data), "\n") {
			found := true
			for _, p := range parts {
				found = found && strings.Contains(line, p)
			}
			if found {
				var out map[string]any
				if err := json.Unmarshal([]byte(line), &out); err != nil {
					t.Fatalf("log line %q: %v", line, err)
				}
				return out
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no server log line with %q", parts)
	return nil
}

func TestExportStopsWhenTheClientLeaves(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const rows = 200000
	fillQuotes(t, s, "2035-06-05", rows)
	req, err := http.NewRequest(http.MethodGet, s.BaseURL()+"/v1/developer/export/quotes?start_date=2035-06-05", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// Read the header line and some rows, then hang up.
	reader := bufio.NewReader(resp.Body)
	if _, err := io.CopyN(io.Discard, reader, 64<<10); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	line := serverLogLine(t, s, 0, `"export ended"`, `"code":"CANCELLED"`)
	sent, _ := strconv.Atoi(fmt.Sprint(line["records_sent"]))
	if sent <= 0 || sent >= rows {
		t.Errorf("the server sent %d of %d records before it stopped: %v", sent, rows, line)
	}
	// No statement of the export is still running.
	if n := s.SQL(t, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE '%stock_quotes%' AND pid <> pg_backend_pid()"); n != "0" {
		t.Errorf("%s statements on stock_quotes still running", n)
	}
}

// peakRSS is a process's peak resident memory (VmHWM) in bytes.
func peakRSS(t *testing.T, p *process) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.pid()))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", p.pid())
	return 0
}

// TestExportMemoryIsBounded exports 2 million quotes as CSV and as Parquet
// and checks the peak resident memory of the server and the gateway stays
// under 200 MB: neither holds the export.
func TestExportMemoryIsBounded(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const rows = 2000000
	// 2 million rows over two days: 500 symbols, one quote a second each.
	fillQuotes(t, s, "2035-07-03", rows/2)
	fillQuotes(t, s, "2035-07-04", rows/2)
	for _, format := range []string{"csv", "parquet"} {
		req, err := http.NewRequest(http.MethodGet, s.BaseURL()+"/v1/developer/export/quotes?start_date=2035-07-03&end_date=2035-07-04&format="+format, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		mark := s.logMarks()[s.server.logPath]
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: status %d, %v", format, resp.StatusCode, err)
		}
		t.Logf("%s: %d bytes in %v", format, n, time.Since(start))
		line := serverLogLine(t, s, mark, `"export ended"`, `"records_sent":`+strconv.Itoa(rows))
		if line["code"] != "OK" {
			t.Errorf("%s: %v", format, line)
		}
	}
	const bound = 200 << 20
	for _, p := range []*process{s.server, s.gateway} {
		if rss := peakRSS(t, p); rss >= bound {
			t.Errorf("%s: peak RSS %d MB during the exports, want < 200 MB", p.name, rss>>20)
		} else {
			t.Logf("%s: peak RSS %d MB", p.name, rss>>20)
		}
	}
}

// TestAnExportHoldsBackNeitherWritesNorWatches pauses an export half read
// (its client stops reading, so the server's stream waits on flow control)
// and checks, meanwhile, that a write is answered, that a watch sees it (the
// export holds no transaction that would hold back the watches' commit
// horizon) and that no connection sits idle in a transaction; then the
// export reads on to its last row.
func TestAnExportHoldsBackNeitherWritesNorWatches(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const rows = 200000
	fillQuotes(t, s, "2035-08-07", rows)
	export := openHTTPStream(t, s, "/v1/developer/export/quotes?start_date=2035-08-07&format=csv", token, nil)
	if export.StatusCode != 200 {
		t.Fatalf("export: HTTP %d", export.StatusCode)
	}
	defer export.Body.Close()
	var head bytes.Buffer
	if _, err := io.CopyN(&head, export.Body, 64<<10); err != nil {
		t.Fatal(err)
	}

	sym := uniqueSymbol(t, "X")
	watch := openHTTPStream(t, s, "/v1/developer/watch/quotes?symbols="+sym, token, map[string]string{"Accept": "text/event-stream"})
	if watch.StatusCode != 200 {
		t.Fatalf("watch: HTTP %d", watch.StatusCode)
	}
	defer watch.Body.Close()
	events := bufio.NewReader(watch.Body)
	if hello := readSSE(t, events); hello.Result == nil || hello.Result.Cursor == "" {
		t.Fatalf("first event: %+v", hello)
	}
	postQuotes(t, s, token, sym, devQuote{at: "2035-08-08T11:00:00", price: 7})
	for {
		line := readSSE(t, events) // heartbeats carry no events; streamContext bounds the wait
		if line.Result != nil && len(line.Result.Events) > 0 {
			if q := line.Result.Events[0]["quote"].(map[string]any); q["nseSymbol"] != sym {
				t.Fatalf("watched %v, want a quote of %s", q, sym)
			}
			break
		}
	}
	if n := s.SQL(t, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'"); n != "0" {
		t.Errorf("%s connections idle in a transaction while the export waits", n)
	}

	// The rest of the file: the header and every row.
	rest, err := io.ReadAll(export.Body)
	if err != nil {
		t.Fatalf("reading the rest of the export: %v", err)
	}
	if lines := bytes.Count(head.Bytes(), []byte("\n")) + bytes.Count(rest, []byte("\n")); lines != rows+1 {
		t.Errorf("the export has %d lines, want the header and %d rows", lines, rows)
	}
}
