package e2e

// Bulk import (docs/api.md "Import"): files an export wrote, read back in
// every format against the real binaries, and every kind of bad file.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mdc-project/mdc/clients/go/mdcv1"
)

// TestImportRoundTrip exports two days in every format, deletes them,
// imports each file and reads the days back: every export (the reads of
// every stored record) answers as before, byte for byte. Importing a file
// again changes nothing.
func TestImportRoundTrip(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	admin := s.AdminToken()
	d := storeExportData(t, s, token)
	const days = "start_date=2035-03-06&end_date=2035-03-07"
	// records of each kind: 5 quotes, 2 NIFTY quotes, 2 snapshots.
	records := map[string]int{"quotes": 5, "nifty": 2, "shortlists": 2}

	before := map[string][]byte{}
	for _, kind := range importKinds {
		for _, format := range importFormats {
			before[kind+"."+format] = exportFile(t, s, kind, format, days, token)
		}
	}
	// The reads by symbol and time, besides the exports.
	const span = "start_datetime=2035-03-06T09:00:00&end_datetime=2035-03-07T23:00:00&timezone=Asia/Kolkata"
	timeline := func() string {
		out := ""
		for _, path := range []string{
			"/v1/developer/nifty-timeline?" + span,
			"/v1/developer/quote-timeline?symbol=" + d.a + "&" + span,
			"/v1/developer/historical-candles?symbol=" + d.a + "&interval=1minute&" + span,
			"/v1/developer/quote?symbol=" + d.c + "&datetime=2035-03-07T12:00:00&timezone=Asia/Kolkata",
		} {
			r := s.Do(t, "GET", path, token, nil)
			expectStatus(t, r, 200)
			out += r.Text() + "\n"
		}
		return out
	}
	timelineBefore := timeline()

	// A watcher of one symbol sees the imported records once, at the
	// import's commit, and nothing again for the import of the same file.
	watch, err := mdcv1.NewStreamServiceClient(dialGRPC(t, s)).WatchQuotes(withToken(streamContext(t), token),
		&mdcv1.WatchQuotesRequest{Symbols: []string{d.a}})
	if err != nil {
		t.Fatal(err)
	}
	expectHello(t, watch)
	watched := false

	for _, format := range importFormats {
		t.Run(format, func(t *testing.T) {
			r := s.Do(t, "DELETE", "/v1/admin/data/dates", admin, map[string]any{"dates": []string{"2035-03-06", "2035-03-07"}})
			expectStatus(t, r, 200)
			if got := exportFile(t, s, "quotes", "ndjson", days, token); len(got) != 0 {
				t.Fatalf("the days were not deleted: %s", got)
			}
			for _, kind := range importKinds {
				importCounts(t, postImport(t, s, kind, format, admin, before[kind+"."+format]), records[kind], records[kind])
			}
			for _, kind := range importKinds {
				for _, f := range importFormats {
					if got := exportFile(t, s, kind, f, days, token); !bytes.Equal(got, before[kind+"."+f]) {
						t.Errorf("%s as %s after the import of the %s files:\n%s\nwant\n%s", kind, f, format, got, before[kind+"."+f])
					}
				}
			}
			if got := timeline(); got != timelineBefore {
				t.Errorf("reads after the import:\n%s\nwant\n%s", got, timelineBefore)
			}
			// Again: the same records change nothing.
			for _, kind := range importKinds {
				importCounts(t, postImport(t, s, kind, format, admin, before[kind+"."+format]), records[kind], 0)
			}
			if !watched {
				watched = true
				want := []string{"Q " + d.a + " 2035-03-06T03:45:00Z", "Q " + d.a + " 2035-03-06T03:46:30Z", "Q " + d.a + " 2035-03-07T04:30:00Z"}
				if got := keysOf(recvEvents(t, watch, 3)); strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("the watcher saw %v, want %v", got, want)
				}
				// The next event is a live quote written after the second
				// import: that import sent nothing.
				live := map[string]any{"data": map[string]any{"timestamp": "2035-03-08T09:15:00", "timezone": "Asia/Kolkata",
					"quotes": []any{map[string]any{"nseSymbol": d.a, "quoteData": map[string]any{"status": "FAILURE"}}}}}
				expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, live), 200)
				if got := keysOf(recvEvents(t, watch, 1)); got[0] != "Q "+d.a+" 2035-03-08T03:45:00Z" {
					t.Errorf("after the import of the same file, the watcher saw %v", got)
				}
			}
		})
	}
}

// TestImportBadFiles posts every kind of bad file: each is refused with
// 4xx naming the line or row and the rule, and nothing of it is stored.
func TestImportBadFiles(t *testing.T) {
	s := StartStackWith(t, StackOptions{GatewayEnv: []string{fmt.Sprintf("MDC_IMPORT_MAX_BYTES=%d", 4<<20)}})
	_, token := s.NewDeveloper(t, "developer")
	admin := s.AdminToken()
	storeExportData(t, s, token)
	const days = "start_date=2035-03-06&end_date=2035-03-07"
	quotesCSV := exportFile(t, s, "quotes", "csv", days, token)
	quotesNDJSON := exportFile(t, s, "quotes", "ndjson", days, token)
	quotesParquet := exportFile(t, s, "quotes", "parquet", days, token)
	shortlistsCSV := exportFile(t, s, "shortlists", "csv", days, token)
	if r := s.Do(t, "DELETE", "/v1/admin/data/dates", admin, map[string]any{"dates": []string{"2035-03-06", "2035-03-07"}}); r.Status != 200 {
		t.Fatalf("delete: %s", r)
	}
	nothingStored := func(t *testing.T) {
		t.Helper()
		for _, kind := range importKinds {
			if got := exportFile(t, s, kind, "ndjson", days, token); len(got) != 0 {
				t.Fatalf("a refused import stored %s: %s", kind, got)
			}
		}
	}
	rows := csvTable(t, quotesCSV)
	// with replaces the cell of column col on line (1-based) of the file.
	with := func(line int, col, value string) []byte {
		out := copyRows(rows)
		for i, h := range rows[0] {
			if h == col {
				out[line-1][i] = value
				return writeCSV(out)
			}
		}
		t.Fatalf("no column %s", col)
		return nil
	}
	plusRow := append(copyRows(rows), append(append([]string(nil), rows[1]...), "1"))

	cases := []struct {
		name, kind, format string
		file               []byte
		status             int
		place, reason      string
	}{
		{"unknown format", "quotes", "xml", quotesCSV, 400, "format", "must be one of csv, parquet or ndjson"},
		{"quotes CSV as NIFTY", "nifty", "csv", quotesCSV, 400, "line 1", `unexpected column "nse_symbol"`},
		{"quotes NDJSON as shortlists", "shortlists", "ndjson", quotesNDJSON, 400, "line 1", "records[0].shortlist"},
		{"quotes Parquet as NIFTY", "nifty", "parquet", quotesParquet, 400, "file", `unexpected column "nse_symbol"`},
		{"CSV as Parquet", "quotes", "parquet", quotesCSV, 400, "file", "not Parquet"},
		{"Parquet as CSV", "quotes", "csv", quotesParquet, 400, "line 1", "column"},
		{"missing column", "quotes", "csv", writeCSV(dropColumn(rows, "depth")), 400, "line 1", `missing column "depth"`},
		{"extra column", "quotes", "csv", writeCSV(addColumn(rows, "extra")), 400, "line 1", `unexpected column "extra"`},
		{"a row with a field too many", "quotes", "csv", writeCSV(plusRow), 400, "line 7", "number of fields"},
		{"not a number", "quotes", "csv", with(3, "last_price", "abc"), 400, "line 3", `column last_price: is not a number: "abc"`},
		{"not an instant", "quotes", "csv", with(2, "timestamp", "yesterday"), 400, "line 2", "column timestamp: is not an RFC 3339 instant"},
		{"bad symbol", "quotes", "csv", with(4, "nse_symbol", "NO SPACES"), 400, "line 4", "records[2].quote.nseSymbol: must be 1-32 characters"},
		{"another trading day", "quotes", "csv", with(5, "trading_day", "2035-03-08"), 400, "line 5", "records[3].tradingDay: must be the trading day of the record's instant in Asia/Kolkata, 2035-03-07"},
		{"a SUCCESS quote without its price", "quotes", "csv", with(2, "last_price", ""), 400, "line 2", "records[0].quote.quoteData.payload.last_price: is required when status is SUCCESS"},
		{"a number out of range", "quotes", "csv", with(6, "volume", "1e16"), 400, "line 6", "records[4].quote.quoteData.payload.volume: must be a finite number"},
		{"bad NDJSON line", "quotes", "ndjson", append(append([]byte(nil), quotesNDJSON...), "{not json\n"...), 400, "line 6", "is not a record"},
		{"a snapshot cut short", "shortlists", "csv", writeCSV(csvTable(t, shortlistsCSV)[:3]), 400, "line 2", "the file ends inside a snapshot: it has 2 of its 3 entries"},
		{"empty file", "quotes", "csv", []byte{}, 400, "line 1", "the file is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expectBadPlace(t, postImport(t, s, c.kind, c.format, admin, c.file), c.place, c.reason)
			nothingStored(t)
		})
	}

	t.Run("a developer token", func(t *testing.T) {
		expectStatus(t, postImport(t, s, "quotes", "csv", token, quotesCSV), 403)
		// Refused before the file is read: a bad file is 403 too.
		expectStatus(t, postImport(t, s, "quotes", "csv", token, []byte("not,the,header\r\n")), 403)
		expectStatus(t, postImport(t, s, "quotes", "csv", "", quotesCSV), 401)
		nothingStored(t)
	})

	// A file of about 5 MiB, over the stack's 4 MiB limit.
	big := bigQuotesFile(rows[0], 5<<20)
	t.Run("too large, said by Content-Length", func(t *testing.T) {
		expectStatus(t, postImport(t, s, "quotes", "csv", admin, big), 413)
		nothingStored(t)
	})
	t.Run("too large, found while streaming", func(t *testing.T) {
		req, err := http.NewRequest("POST", s.BaseURL()+"/v1/admin/import/quotes?format=csv", io.MultiReader(bytes.NewReader(big)))
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = -1 // chunked: the gateway learns the size as it reads
		req.Header.Set("Authorization", "Bearer "+admin)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 413 {
			t.Fatalf("status %d, want 413", resp.StatusCode)
		}
		nothingStored(t)
	})
	t.Run("the client leaves half way", func(t *testing.T) {
		upload := startUpload(t, s, admin, big[:3<<20])
		upload.cancel()
		<-upload.done
		nothingStored(t)
		// The stack still imports.
		importCounts(t, postImport(t, s, "quotes", "csv", admin, quotesCSV), 5, 5)
	})
}

// TestImportServerKilledHalfWay kills the server while a file streams in:
// the import answers 503 and stores nothing, and the file imports whole
// once the server is back.
func TestImportServerKilledHalfWay(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	admin := s.AdminToken()
	header := csvTable(t, exportFile(t, s, "quotes", "csv", "start_date=2035-03-06", token))[0]
	file := bigQuotesFile(header, 6<<20)
	upload := startUpload(t, s, admin, file[:3<<20])
	s.KillServer(t)
	upload.finish()
	if r := <-upload.done; r.err != nil || r.status != 503 {
		t.Fatalf("the import answered %d (%v), want 503", r.status, r.err)
	}
	s.StartServer(t)
	if got := exportFile(t, s, "quotes", "ndjson", "start_date=2035-03-06", token); len(got) != 0 {
		t.Fatalf("an import cut by the server's death stored records: %.200s", got)
	}
	rows := bytes.Count(file, []byte("\r\n")) - 1
	importCounts(t, postImport(t, s, "quotes", "csv", admin, file), rows, rows)
}

// upload is an import whose body is written as the test goes.
type upload struct {
	body   *io.PipeWriter
	cancel context.CancelFunc
	done   chan uploadResult
}

type uploadResult struct {
	status int
	err    error
}

// startUpload posts a quotes CSV import whose body begins with first and
// returns once the gateway has taken first (a pipe gives no byte before
// it is read): past the gateway's first messages to the server.
func startUpload(t *testing.T, s *Stack, token string, first []byte) *upload {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	req, err := http.NewRequestWithContext(ctx, "POST", s.BaseURL()+"/v1/admin/import/quotes?format=csv", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	u := &upload{body: pw, cancel: func() { cancel(); pw.CloseWithError(context.Canceled) }, done: make(chan uploadResult, 1)}
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			u.done <- uploadResult{err: err}
			return
		}
		resp.Body.Close()
		u.done <- uploadResult{status: resp.StatusCode}
	}()
	// Whole rows only.
	first = first[:bytes.LastIndex(first, []byte("\r\n"))+2]
	if _, err := pw.Write(first); err != nil {
		t.Fatal(err)
	}
	return u
}

// finish ends the body where it is.
func (u *upload) finish() { _ = u.body.Close() }

// bigQuotesFile is a quotes CSV of about size bytes: header, then rows of
// one symbol 100 ms apart from 2035-03-06 09:15 IST (2035-03-06T03:45Z).
func bigQuotesFile(header []string, size int) []byte {
	var b bytes.Buffer
	b.WriteString(strings.Join(header, ",") + "\r\n")
	start := time.Date(2035, 3, 6, 3, 45, 0, 0, time.UTC)
	for i := 0; b.Len() < size; i++ {
		at := start.Add(time.Duration(i) * 100 * time.Millisecond).Format(time.RFC3339Nano)
		row := []string{at, "2035-03-06", "BIGFILE", "SUCCESS", fmt.Sprint(100 + i%50)}
		for len(row) < len(header) {
			row = append(row, "")
		}
		b.WriteString(strings.Join(row, ",") + "\r\n")
	}
	return b.Bytes()
}

// dropColumn removes column name from every row.
func dropColumn(rows [][]string, name string) [][]string {
	out := copyRows(rows)
	for i, h := range rows[0] {
		if h == name {
			for r := range out {
				out[r] = append(out[r][:i], out[r][i+1:]...)
			}
		}
	}
	return out
}

// addColumn adds an empty column name at the end of every row.
func addColumn(rows [][]string, name string) [][]string {
	out := copyRows(rows)
	for r := range out {
		value := ""
		if r == 0 {
			value = name
		}
		out[r] = append(out[r], value)
	}
	return out
}
