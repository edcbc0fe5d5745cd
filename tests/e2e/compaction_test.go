package e2e

// Compacted history (issue 32; docs/architecture.md, "Compacted history"):
// quotes of a closed trading day, written through the API, are compacted
// through the admin route and every read answers byte for byte as before;
// a later write to the compacted day is read at once and folded in by the
// next compaction; a server killed during a compaction leaves every quote
// readable exactly once; deleting the day removes the compacted quotes.

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A closed Monday in the past (compaction takes closed days only), and the
// next day of the same month, which stays in the row store.
const (
	compactDay  = "2025-06-02"
	compactNext = "2025-06-03"
)

// compactQuote is the full quote of symbol's i-th second-step: every payload
// number, the day's OHLC and five depth levels a side; every 97th has no
// price (a FAILURE quote) and every 89th no volume.
func compactQuote(i int, base float64) map[string]any {
	price := base + float64(i%37)*0.05 - float64(i%11)*0.1
	payload := map[string]any{
		"last_price": price, "volume": float64(1000 + 37*i), "day_change": 1.25,
		"day_change_perc": 0.31, "average_price": base + 0.5, "bid_price": price - 0.05,
		"bid_quantity": float64(10 + i%7), "offer_price": price + 0.05, "offer_quantity": float64(12 + i%5),
		"total_buy_quantity": float64(50000 + i), "total_sell_quantity": float64(48000 - i),
		"last_trade_time": float64(1748835900000 + int64(i)*10000),
		"ohlc":            map[string]any{"open": base, "high": base + 3, "low": base - 2, "close": base - 1},
	}
	var buy, sell []any
	for level := 1; level <= 5; level++ {
		buy = append(buy, map[string]any{"price": price - 0.05*float64(level), "quantity": float64(100 * level)})
		sell = append(sell, map[string]any{"price": price + 0.05*float64(level), "quantity": float64(90 * level)})
	}
	payload["depth"] = map[string]any{"buy": buy, "sell": sell}
	status := "SUCCESS"
	if i%97 == 5 {
		delete(payload, "last_price")
		status = "FAILURE"
	}
	if i%89 == 7 {
		delete(payload, "volume")
	}
	return map[string]any{"status": status, "payload": payload}
}

// oddQuote is a full quote whose numbers are written the odd ways JSON
// allows, so the compacted payload columns must give back exactly what was
// parsed: many decimals (more than a double holds), exponents, negative
// zero, the smallest subnormal, the ends of the allowed range, nulls, and a
// depth with a missing level half and sides of different depths.
func oddQuote(j int) map[string]any {
	n := func(s string) json.Number { return json.Number(s) }
	odd := []json.Number{n("-0"), n("1.5e-7"), n("0.30000000000000004"), n("5e-324"),
		n("123456.78901234567891"), n("-1E15"), n("9.99999999999999E14"), n("-0.0"), n("7")}
	payload := map[string]any{
		"last_price":          42.5 + float64(j)/100 + float64(j%3)*1e-9,
		"day_change":          odd[j%len(odd)],
		"day_change_perc":     odd[(j+1)%len(odd)],
		"volume":              float64(1000 + 7*j),
		"average_price":       odd[(j+2)%len(odd)],
		"bid_price":           n(fmt.Sprintf("42.%03d4999999999999", j)),
		"market_cap":          n("1e15"),
		"implied_volatility":  nil,
		"last_trade_time":     n(fmt.Sprintf("17488359%05d", j*137)),
		"total_buy_quantity":  n(fmt.Sprintf("%dE3", j)),
		"total_sell_quantity": n("1.0"),
		"ohlc":                map[string]any{"open": n("-0.0"), "high": n("1E2"), "low": odd[(j+3)%len(odd)], "close": nil},
		"depth": map[string]any{
			"buy":  []any{map[string]any{"price": n("42.45"), "quantity": n("2.5e3")}, map[string]any{"price": odd[(j+4)%len(odd)]}},
			"sell": []any{map[string]any{"quantity": n("0.001")}},
		},
	}
	if j%4 == 1 {
		delete(payload, "depth")
	}
	return map[string]any{"status": "SUCCESS", "payload": payload}
}

// writeCompactionDay stores the test's quotes: symbol a every 10 seconds
// from 09:15 (1,050 quotes: more than one batch), b and c every 100
// seconds, on compactDay; and a few of a on compactNext.
func writeCompactionDay(t *testing.T, s *Stack, token string, a, b, c string) {
	t.Helper()
	open := time.Date(2025, 6, 2, 9, 15, 0, 0, time.UTC)
	for i := 0; i < 1050; i++ {
		at := open.Add(time.Duration(i) * 10 * time.Second).Format("2006-01-02T15:04:05")
		quotes := []any{map[string]any{"nseSymbol": a, "quoteData": compactQuote(i, 1500)}}
		if i%10 == 0 {
			quotes = append(quotes,
				map[string]any{"nseSymbol": b, "quoteData": compactQuote(i, 250)},
				map[string]any{"nseSymbol": c, "quoteData": oddQuote(i / 10)})
		}
		body := map[string]any{"data": map[string]any{"timestamp": at, "timezone": "Asia/Kolkata", "quotes": quotes}}
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, body), 200)
	}
	postQuotes(t, s, token, a, devQuote{compactNext + "T09:15:00", 1600, 10}, devQuote{compactNext + "T10:00:00", 1601, 20})
	waitForWriteTallies(t, s, compactDay, 1260)
}

// waitForWriteTallies waits until the servers' tallies of the writes of day
// (developer_writes, merged about once a second; coverage reads them) count
// n quotes, so that reads taken after it stay the same.
func waitForWriteTallies(t *testing.T, s *Stack, day string, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d quote writes tallied on %s", n, day), func() bool {
		return s.SQL(t, "SELECT coalesce(sum(records), 0) FROM developer_writes "+
			"WHERE kind = 'quotes' AND trading_day = '"+day+"'") == fmt.Sprint(n)
	})
}

// compactionReads are the reads compared before and after: as-of,
// timelines, candles of every interval (one symbol and many),
// cross-sections, exports in CSV, NDJSON and Parquet, replay, the
// dashboard's reads and coverage, and the admin's list of dates.
func compactionReads(a, b, c string) []string {
	day := compactDay
	window := "&start_datetime=" + day + "T09:15:00&end_datetime=" + day + "T15:30:00"
	reads := []string{
		"/v1/developer/quote?symbol=" + a + "&datetime=" + day + "T12:00:00",
		"/v1/developer/quote?symbol=" + a + "&datetime=" + day + "T12:00:04",
		"/v1/developer/quote?symbol=" + c + "&datetime=" + day + "T15:00:00",
		"/v1/developer/quote?symbol=" + a + "&datetime=" + compactNext + "T09:30:00",
		"/v1/developer/quote-timeline?symbol=" + a + window + "&pageSize=400",
		"/v1/developer/quote-timeline?symbol=" + b + window,
		"/v1/developer/quote-timeline?symbol=" + a + "&start_datetime=" + day + "T11:00:00&end_datetime=" + compactNext + "T15:30:00",
		"/v1/developer/candles?symbols=" + a + "," + b + "," + c + "&interval=1minute" + window,
		"/v1/developer/quotes?symbols=" + a + "," + b + "," + c + "&datetime=" + day + "T11:00:00",
		"/v1/developer/quotes?pageSize=2&datetime=" + day + "T13:00:00",
		"/v1/developer/quotes?datetime=" + day + "T13:00:00",
		"/v1/developer/export/quotes?start_date=" + day + "&end_date=" + compactNext + "&format=csv",
		"/v1/developer/export/quotes?start_date=" + day + "&end_date=" + day + "&format=ndjson",
		"/v1/developer/export/quotes?start_date=" + day + "&end_date=" + day + "&format=parquet&symbols=" + a,
		"/v1/developer/export/candles?start_date=" + day + "&end_date=" + day + "&interval=1minute",
		"/v1/developer/export/candles?start_date=" + day + "&end_date=" + day + "&interval=1day&format=parquet",
		"/v1/developer/replay?date=" + day,
		"/v1/developer/replay?date=" + day + "&symbols=" + b + "," + c,
		"/v1/developer/replay?date=" + day + "&symbols=" + a,
		"/v1/developer/export/quotes?start_date=" + day + "&end_date=" + day + "&format=csv&symbols=" + b + "," + c,
		"/v1/dashboard/candles?symbol=" + a + "&date=" + day,
		"/v1/dashboard/candles?symbol=" + a + "&interval=5minute&date=" + day,
		"/v1/dashboard/quote-timelines?symbol=" + b + "&date=" + day,
		"/v1/dashboard/coverage?date=" + day,
		"/v1/dashboard/available-datetimes?date=" + day,
		"/v1/dashboard/available-datetimes",
	}
	for _, interval := range []string{"1minute", "3minute", "5minute", "10minute", "15minute", "30minute", "1hour", "1day"} {
		reads = append(reads, "/v1/developer/historical-candles?symbol="+a+"&interval="+interval+window)
	}
	// Every odd quote of c, as stored.
	reads = append(reads, "/v1/developer/quote-timeline?symbol="+c+window)
	return reads
}

// readAll answers every read (following a timeline's pages), as raw bytes.
func readAll(t *testing.T, s *Stack, token string, paths []string) map[string]string {
	t.Helper()
	answers := map[string]string{}
	for _, path := range paths {
		var body strings.Builder
		next := path
		for page := 0; page < 20; page++ {
			r := s.Do(t, "GET", next, token, nil)
			if r.Status != 200 {
				t.Fatalf("GET %s: HTTP %d %s", next, r.Status, r.Text())
			}
			body.Write(r.Body)
			token, _ := r.JSON["nextPageToken"].(string)
			if token == "" {
				break
			}
			next = path + "&pageToken=" + token
		}
		answers[path] = body.String()
	}
	admin := s.Do(t, "GET", "/v1/admin/data/available-dates", s.AdminToken(), nil)
	expectStatus(t, admin, 200)
	answers["available-dates"] = string(admin.Body)
	return answers
}

func sameReads(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for path, w := range want {
		if g := got[path]; g != w {
			at := 0
			for at < len(g) && at < len(w) && g[at] == w[at] {
				at++
			}
			from := max(0, at-200)
			t.Errorf("%s: %s answers differently from byte %d:\n got ...%.400s\nwant ...%.400s",
				what, path, at, g[from:], w[from:])
		}
	}
}

func compact(t *testing.T, s *Stack, through string) *Response {
	t.Helper()
	return s.Do(t, "POST", "/v1/admin/data/compact", s.AdminToken(), map[string]any{"through": through})
}

func TestCompactionKeepsEveryReadTheSame(t *testing.T) {
	metricsAddr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	s := StartStackWith(t, StackOptions{Env: []string{"MDC_METRICS_ADDR=" + metricsAddr}})
	_, token := s.NewDeveloper(t, "developer")
	a, b, c := uniqueSymbol(t, "CA"), uniqueSymbol(t, "CB"), uniqueSymbol(t, "CC")
	writeCompactionDay(t, s, token, a, b, c)
	reads := compactionReads(a, b, c)
	before := readAll(t, s, token, reads)
	if !strings.Contains(before[reads[4]], `"nseSymbol"`) || !strings.Contains(before[reads[16]], a) {
		t.Fatalf("the reads before compaction see no quotes: %.300s", before[reads[4]])
	}

	// Bad input: 400 naming `through`, nothing compacted.
	today := time.Now().In(time.FixedZone("IST", 5*3600+1800)).Format("2006-01-02")
	for _, bad := range []string{"", "2025-13-01", "02-06-2025", today, "2999-01-01"} {
		if r := compact(t, s, bad); r.Status != 400 || !violationsAre(r.JSON, "through") {
			t.Errorf("compact through %q: want 400 naming through, got %v", bad, r)
		}
	}
	if n := s.SQL(t, "SELECT count(*) FROM stock_quote_batches"); n != "0" {
		t.Fatalf("a refused compaction wrote %s batches", n)
	}

	r := compact(t, s, compactDay)
	expectStatus(t, r, 200)
	if fmt.Sprint(r.JSON["days"]) != "1" || fmt.Sprint(r.JSON["quotes"]) != "1260" {
		t.Errorf("compaction of one day of 1,260 quotes: %s", r.Text())
	}
	if n := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE trading_day = '"+compactDay+"'"); n != "0" {
		t.Errorf("%s rows of the compacted day left in the row store", n)
	}
	// The month was written before it had a partition (in DEFAULT): the
	// compaction made it, and swapped it for one holding the other day only.
	if got := s.SQL(t, "SELECT tableoid::regclass, count(*) FROM stock_quotes GROUP BY 1"); got != "stock_quotes_p2025_06|2" {
		t.Errorf("rows left after the partition swap (partition|rows): %q, want the next day's 2", got)
	}

	// The storage report: the month row-wise (the next day) and compacted.
	report := s.Do(t, "GET", "/v1/admin/data/storage", s.AdminToken(), nil)
	expectStatus(t, report, 200)
	forms := map[string]string{}
	formBytes := map[string]string{}
	for _, u := range asSlice(report.JSON["usage"]) {
		u := u.(map[string]any)
		if u["kind"] == "quotes" && u["month"] == "2025-06" {
			forms[fmt.Sprint(u["form"])] = fmt.Sprint(u["rows"])
			formBytes[fmt.Sprint(u["form"])] = fmt.Sprint(u["bytes"])
			// int64 fields are JSON strings.
			if bytes, err := strconv.ParseInt(fmt.Sprint(u["bytes"]), 10, 64); err != nil || bytes <= 0 || num(t, u["bytesPerRow"]) <= 0 {
				t.Errorf("storage report without bytes: %v", u)
			}
		}
	}
	if forms["rows"] != "2" || forms["compacted"] != "1260" {
		t.Errorf("storage report of quotes in 2025-06 (rows per form): %v; %s", forms, report.Text())
	}
	// The same report as Prometheus series, set by reading it.
	scraped := fetchScrape(t, metricsAddr)
	for form, rows := range forms {
		labels := map[string]string{"kind": "quotes", "month": "2025-06", "form": form}
		if got := scraped.find("mdc_storage_rows", labels); len(got) != 1 || strconv.FormatFloat(got[0].value, 'f', -1, 64) != rows {
			t.Errorf("mdc_storage_rows%v = %v, want %s as the report", labels, got, rows)
		}
		if got := scraped.find("mdc_storage_bytes", labels); len(got) != 1 || strconv.FormatFloat(got[0].value, 'f', -1, 64) != formBytes[form] {
			t.Errorf("mdc_storage_bytes%v = %v, want %s as the report", labels, got, formBytes[form])
		}
	}
	// a: 1,050 quotes in nine batches, cut at two-minute slots once a batch
	// holds 120 (domain.BatchBounds: 126, seven of 120, 84); b and c: one
	// each (105 quotes, never 120).
	if got := s.SQL(t, "SELECT string_agg(row_count::text, ',' ORDER BY nse_symbol, first_observed_at) "+
		"FROM stock_quote_batches WHERE trading_day = '"+compactDay+"'"); got != "126,120,120,120,120,120,120,120,84,105,105" {
		t.Errorf("batches' quote counts: %s", got)
	}
	sameReads(t, "after compaction", before, readAll(t, s, token, reads))

	// Idempotent: nothing left to compact.
	r = compact(t, s, compactDay)
	if r.Status != 200 || fmt.Sprint(r.JSON["days"]) != "0" {
		t.Errorf("compacting again: %v", r)
	}

	// A later write to the compacted day: a new quote and one replacing a
	// compacted quote land in the row store and are read at once, the
	// newer write winning; the next compaction folds them in and every
	// read stays the same.
	postQuotes(t, s, token, a, devQuote{compactDay + "T12:00:05", 1999, 5}, devQuote{compactDay + "T12:00:00", 1777, 7})
	postQuotes(t, s, token, b, devQuote{compactDay + "T12:00:05", 260, 9})
	// A quote without a price replacing a priced compacted one: the priced
	// reads (candles) must drop the instant, not fall back on the batch.
	priceless := compactQuote(5, 1500)
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, map[string]any{"data": map[string]any{
		"timestamp": compactDay + "T12:00:10", "timezone": "Asia/Kolkata",
		"quotes": []any{map[string]any{"nseSymbol": a, "quoteData": priceless}}}}), 200)
	waitForWriteTallies(t, s, compactDay, 1264)
	late := readAll(t, s, token, reads)
	if q := s.Do(t, "GET", reads[0], token, nil); !strings.Contains(q.Text(), "1777") {
		t.Errorf("as-of after the late write reads the compacted quote: %s", q.Text())
	}
	if q := s.Do(t, "GET", "/v1/developer/quote?symbol="+a+"&datetime="+compactDay+"T12:00:05", token, nil); !strings.Contains(q.Text(), "1999") {
		t.Errorf("as-of after the late write misses the new quote: %s", q.Text())
	}
	// The CSV export: one line more (the new quote), not two.
	if got, want := strings.Count(late[reads[11]], "\n"), strings.Count(before[reads[11]], "\n")+2; got != want {
		t.Errorf("CSV export after the late writes: %d lines, want %d", got, want)
	}
	r = compact(t, s, compactDay)
	if r.Status != 200 || fmt.Sprint(r.JSON["days"]) != "1" || fmt.Sprint(r.JSON["quotes"]) != "4" {
		t.Errorf("compacting the late writes: %v", r)
	}
	sameReads(t, "after folding the late writes in", late, readAll(t, s, token, reads))

	// Deleting the day removes its compacted quotes too.
	r = s.Do(t, "DELETE", "/v1/admin/data/dates", s.AdminToken(), map[string]any{"dates": []string{compactDay}})
	expectStatus(t, r, 200)
	if fmt.Sprint(r.JSON["quotes"]) != "1262" {
		t.Errorf("deleted quotes: %s, want 1262", r.Text())
	}
	if n := s.SQL(t, "SELECT count(*) FROM stock_quote_batches"); n != "0" {
		t.Errorf("%s batches left after deleting the day", n)
	}
	expectStatus(t, s.Do(t, "GET", reads[0], token, nil), 404)
}

func TestCompactionKilledHalfWayLeavesEveryQuoteOnce(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	a, b, c := uniqueSymbol(t, "KA"), uniqueSymbol(t, "KB"), uniqueSymbol(t, "KC")
	writeCompactionDay(t, s, token, a, b, c)
	reads := compactionReads(a, b, c)
	before := readAll(t, s, token, reads)

	killCompactionAtBatchWrite(t, s, "stock_quote_batches", compactDay)

	if n := s.SQL(t, "SELECT count(*) FROM stock_quote_batches"); n != "0" {
		t.Errorf("the killed compaction left %s batches", n)
	}
	sameReads(t, "after a killed compaction", before, readAll(t, s, token, reads))

	// The next run does it all: here the operator's command line, which
	// refuses an open day with exit status 2 first.
	if _, stderr, err := s.RunServerCommand(t, "compact", "--through", "2999-01-01"); exitCode(err) != 2 ||
		!strings.Contains(stderr, "--through: must be a closed trading day") {
		t.Errorf("compact --through an open day: %v, stderr %q", err, stderr)
	}
	out, stderr, err := s.RunServerCommand(t, "compact", "--through", compactDay)
	if err != nil || out != "days 1 quotes 1260 batches 11 busy_months 0 nifty_days 0 nifty_quotes 0 nifty_batches 0" {
		t.Fatalf("mdc-server compact after the kill: %v, stdout %q, stderr %q", err, out, stderr)
	}
	sameReads(t, "after the compaction resumed", before, readAll(t, s, token, reads))
}

// killCompactionAtBatchWrite compacts through `through` and kills the
// server while the compaction waits, behind a lock on batches (its batches
// table), at its first write of a batch, with the day's rows read and
// encoded; then starts the server again.
func killCompactionAtBatchWrite(t *testing.T, s *Stack, batches, through string) {
	t.Helper()
	lock := holdLock(t, s, "LOCK TABLE "+batches+" IN EXCLUSIVE MODE")
	answered := make(chan *Response, 1)
	go func() { answered <- compact(t, s, through) }()
	waitFor(t, "the compaction waiting for its batch write", func() bool {
		return s.SQL(t, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "+
			"AND query LIKE '%"+batches+"%'") == "1"
	})
	s.KillServer(t)
	<-answered
	lock.release(t)
	s.StartServer(t)
}

// exitCode is a command's exit status (0 when it ran to success, -1 when it
// did not run).
func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
