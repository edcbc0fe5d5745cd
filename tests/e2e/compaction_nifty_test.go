package e2e

// Compacted history of the NIFTY quotes (issue 32): NIFTY quotes of a
// closed trading day, written through the API, are compacted through the
// admin route and every NIFTY read answers byte for byte as before (as-of,
// timelines, candles, exports in CSV, NDJSON and Parquet, replay, the
// dashboard's candles and coverage, the admin's list of dates); a later
// write is read at once and folded in by the next compaction; deleting the
// day removes the compacted quotes; a server killed during a compaction
// leaves every NIFTY quote readable exactly once.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A closed Tuesday in the past, and the next day, which stays in the row
// store.
const (
	niftyCompactDay  = "2025-07-01"
	niftyCompactNext = "2025-07-02"
)

// niftyCompactQuote is the i-th NIFTY quote of the day: a level walking
// around 25,000, the day change and OHLC, and the day change posted beside
// it, usually the payload's; every 13th posts another one (a double that
// is not a short decimal), every 29th a negative zero, and every 97th is a
// FAILURE quote without a price.
func niftyCompactQuote(i int) (map[string]any, any) {
	level := 25000 + float64(i%53)*0.35 - float64(i%17)*0.8
	perc := float64(i%41-20) / 100
	payload := map[string]any{
		"last_price": level, "day_change": level - 24950.55, "day_change_perc": perc,
		"ohlc": map[string]any{"open": 24990.1, "high": 25031.85, "low": 24975.2, "close": 24950.55},
	}
	status := "SUCCESS"
	if i%97 == 5 {
		delete(payload, "last_price")
		status = "FAILURE"
	}
	var dayChange any = perc
	switch {
	case i%13 == 4:
		dayChange = json.Number("0.30000000000000004")
	case i%29 == 9:
		dayChange = json.Number("-0")
	}
	return map[string]any{"status": status, "payload": payload}, dayChange
}

// writeNiftyCompactionDay stores 1,020 NIFTY quotes (more than a batch),
// every 10 seconds from 09:15 on niftyCompactDay, and two on the next day.
func writeNiftyCompactionDay(t *testing.T, s *Stack, token string) {
	t.Helper()
	open := time.Date(2025, 7, 1, 9, 15, 0, 0, time.UTC)
	for i := 0; i < 1020; i++ {
		at := open.Add(time.Duration(i) * 10 * time.Second).Format("2006-01-02T15:04:05")
		data, dayChange := niftyCompactQuote(i)
		body := map[string]any{"data": map[string]any{
			"timestamp": at, "timezone": "Asia/Kolkata", "quoteData": data, "dayChangePerc": dayChange,
		}}
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, body), 200)
	}
	postNifty(t, s, token, devQuote{niftyCompactNext + "T09:15:00", 25100, 10}, devQuote{niftyCompactNext + "T10:00:00", 25101, 20})
	waitForNiftyTallies(t, s, niftyCompactDay, 1020)
}

// waitForNiftyTallies is waitForWriteTallies for the NIFTY quotes.
func waitForNiftyTallies(t *testing.T, s *Stack, day string, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d NIFTY writes tallied on %s", n, day), func() bool {
		return s.SQL(t, "SELECT coalesce(sum(records), 0) FROM developer_writes "+
			"WHERE kind = 'nifty' AND trading_day = '"+day+"'") == fmt.Sprint(n)
	})
}

// niftyCompactionReads are the NIFTY reads compared before and after.
func niftyCompactionReads() []string {
	day, next := niftyCompactDay, niftyCompactNext
	window := "&start_datetime=" + day + "T09:15:00&end_datetime=" + day + "T15:30:00"
	reads := []string{
		"/v1/developer/nifty?datetime=" + day + "T12:00:00",
		"/v1/developer/nifty?datetime=" + day + "T12:00:04",
		"/v1/developer/nifty?datetime=" + day + "T09:15:00",
		"/v1/developer/nifty?datetime=" + day + "T15:00:00",
		"/v1/developer/nifty-timeline?pageSize=300" + window,
		"/v1/developer/nifty-timeline?start_datetime=" + day + "T11:00:00&end_datetime=" + next + "T15:30:00",
		"/v1/developer/candles?symbols=NIFTY&interval=1minute" + window,
		"/v1/developer/export/nifty?start_date=" + day + "&end_date=" + next + "&format=csv",
		"/v1/developer/export/nifty?start_date=" + day + "&end_date=" + day + "&format=ndjson",
		"/v1/developer/export/nifty?start_date=" + day + "&end_date=" + next + "&format=parquet",
		"/v1/developer/export/candles?start_date=" + day + "&end_date=" + next + "&interval=1minute&symbols=NIFTY",
		"/v1/developer/export/candles?start_date=" + day + "&end_date=" + day + "&interval=1day&symbols=NIFTY&format=parquet",
		"/v1/developer/replay?date=" + day,
		"/v1/developer/replay?date=" + day + "&kinds=nifty",
		"/v1/dashboard/candles?symbol=NIFTY&date=" + day,
		"/v1/dashboard/candles?symbol=NIFTY&interval=15minute&date=" + day,
		"/v1/dashboard/coverage?date=" + day,
		"/v1/dashboard/coverage",
	}
	for _, interval := range []string{"1minute", "3minute", "5minute", "10minute", "15minute", "30minute", "1hour", "1day"} {
		reads = append(reads, "/v1/developer/historical-candles?symbol=NIFTY&interval="+interval+window)
	}
	return reads
}

func TestCompactionKeepsEveryNiftyReadTheSame(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	writeNiftyCompactionDay(t, s, token)
	reads := niftyCompactionReads()
	before := readAll(t, s, token, reads)
	if !strings.Contains(before[reads[4]], `"dayChangePerc"`) || !strings.Contains(before[reads[13]], `"nifty"`) {
		t.Fatalf("the reads before compaction see no NIFTY quotes: %.300s", before[reads[4]])
	}

	r := compact(t, s, niftyCompactDay)
	expectStatus(t, r, 200)
	if fmt.Sprint(r.JSON["niftyDays"]) != "1" || fmt.Sprint(r.JSON["niftyQuotes"]) != "1020" ||
		fmt.Sprint(r.JSON["niftyBatches"]) != "2" || fmt.Sprint(r.JSON["days"]) != "0" {
		t.Errorf("compaction of one NIFTY day of 1,020 quotes: %s", r.Text())
	}
	// The month's partition (made by the compaction: the month was in
	// DEFAULT) was swapped for one holding the next day only.
	if got := s.SQL(t, "SELECT tableoid::regclass, count(*) FROM nifty_quotes GROUP BY 1"); got != "nifty_quotes_p2025_07|2" {
		t.Errorf("NIFTY rows left after the partition swap (partition|rows): %q", got)
	}
	if got := s.SQL(t, "SELECT string_agg(row_count::text, ',' ORDER BY first_observed_at) "+
		"FROM nifty_quote_batches"); got != "1000,20" {
		t.Errorf("NIFTY batches' quote counts: %s", got)
	}
	report := s.Do(t, "GET", "/v1/admin/data/storage", s.AdminToken(), nil)
	expectStatus(t, report, 200)
	forms := map[string]string{}
	for _, u := range asSlice(report.JSON["usage"]) {
		u := u.(map[string]any)
		if u["kind"] == "nifty" && u["month"] == "2025-07" {
			forms[fmt.Sprint(u["form"])] = fmt.Sprint(u["rows"])
			if num(t, u["bytesPerRow"]) <= 0 {
				t.Errorf("storage report without bytes: %v", u)
			}
		}
	}
	if forms["rows"] != "2" || forms["compacted"] != "1020" {
		t.Errorf("storage report of NIFTY in 2025-07 (rows per form): %v; %s", forms, report.Text())
	}
	sameReads(t, "after compaction", before, readAll(t, s, token, reads))

	// Idempotent.
	r = compact(t, s, niftyCompactDay)
	if r.Status != 200 || fmt.Sprint(r.JSON["niftyDays"]) != "0" {
		t.Errorf("compacting again: %v", r)
	}

	// A later write: a new quote and one replacing a compacted quote land in
	// the row store and are read at once; the next compaction folds them in.
	postNifty(t, s, token, devQuote{niftyCompactDay + "T12:00:05", 19999, 5}, devQuote{niftyCompactDay + "T12:00:00", 17777, 7})
	// And a quote without a price replacing a priced compacted one: the
	// candles and price pages read over both stores lose that price.
	failed, dayChange := niftyCompactQuote(5)
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, map[string]any{"data": map[string]any{
		"timestamp": niftyCompactDay + "T12:00:10", "timezone": "Asia/Kolkata", "quoteData": failed, "dayChangePerc": dayChange,
	}}), 200)
	waitForNiftyTallies(t, s, niftyCompactDay, 1023)
	late := readAll(t, s, token, reads)
	if q := s.Do(t, "GET", reads[0], token, nil); !strings.Contains(q.Text(), "17777") {
		t.Errorf("NIFTY as-of after the late write reads the compacted quote: %s", q.Text())
	}
	if got, want := strings.Count(late[reads[7]], "\n"), strings.Count(before[reads[7]], "\n")+1; got != want {
		t.Errorf("NIFTY CSV export after the late writes: %d lines, want %d", got, want)
	}
	r = compact(t, s, niftyCompactDay)
	if r.Status != 200 || fmt.Sprint(r.JSON["niftyDays"]) != "1" || fmt.Sprint(r.JSON["niftyQuotes"]) != "3" {
		t.Errorf("compacting the late NIFTY writes: %v", r)
	}
	sameReads(t, "after folding the late writes in", late, readAll(t, s, token, reads))

	// Deleting the day removes its compacted NIFTY quotes too.
	r = s.Do(t, "DELETE", "/v1/admin/data/dates", s.AdminToken(), map[string]any{"dates": []string{niftyCompactDay}})
	expectStatus(t, r, 200)
	if fmt.Sprint(r.JSON["niftyQuotes"]) != "1021" {
		t.Errorf("deleted NIFTY quotes: %s, want 1021", r.Text())
	}
	if n := s.SQL(t, "SELECT count(*) FROM nifty_quote_batches"); n != "0" {
		t.Errorf("%s NIFTY batches left after deleting the day", n)
	}
	if q := s.Do(t, "GET", reads[4], token, nil); q.Status != 200 || strings.Contains(q.Text(), "dayChangePerc") {
		t.Errorf("the deleted day's NIFTY timeline: %s", q.Text())
	}
}

func TestCompactionKilledHalfWayLeavesEveryNiftyQuoteOnce(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	writeNiftyCompactionDay(t, s, token)
	reads := niftyCompactionReads()
	before := readAll(t, s, token, reads)

	killCompactionAtBatchWrite(t, s, "nifty_quote_batches", niftyCompactDay)

	if n := s.SQL(t, "SELECT count(*) FROM nifty_quote_batches"); n != "0" {
		t.Errorf("the killed compaction left %s NIFTY batches", n)
	}
	if n := s.SQL(t, "SELECT count(*) FROM nifty_quotes"); n != "1022" {
		t.Errorf("the killed compaction left %s NIFTY rows, want 1022", n)
	}
	sameReads(t, "after a killed compaction", before, readAll(t, s, token, reads))

	out, stderr, err := s.RunServerCommand(t, "compact", "--through", niftyCompactDay)
	if err != nil || out != "days 0 quotes 0 batches 0 busy_months 0 nifty_days 1 nifty_quotes 1020 nifty_batches 2" {
		t.Fatalf("mdc-server compact after the kill: %v, stdout %q, stderr %q", err, out, stderr)
	}
	sameReads(t, "after the compaction resumed", before, readAll(t, s, token, reads))
}
