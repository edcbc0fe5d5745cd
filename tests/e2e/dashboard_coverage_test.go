package e2e

// GET /v1/dashboard/coverage (docs/api.md, "Coverage"): the session minutes
// of a day that hold quotes, NIFTY quotes and shortlists, with the gaps
// between runs of minutes, and each collector's last write.

import (
	"reflect"
	"testing"
	"time"
)

// coverageRanges reads a coverage's `ranges` as [first, last] pairs.
func coverageRanges(series map[string]any) [][2]float64 {
	var out [][2]float64
	for _, r := range asSlice(series["ranges"]) {
		out = append(out, [2]float64{asObject(r)["first"].(float64), asObject(r)["last"].(float64)})
	}
	return out
}

// coverageSymbol finds a symbol's entry in a coverage answer, or nil.
func coverageSymbol(answer map[string]any, symbol string) map[string]any {
	for _, s := range asSlice(answer["symbols"]) {
		if asObject(s)["nseSymbol"] == symbol {
			return asObject(s)
		}
	}
	return nil
}

func TestDashboardCoverage(t *testing.T) {
	d := newDash(t)
	id, _ := d.s.NewDeveloper(t, "developer") // writes nothing: not listed
	const day = "2187-06-03"
	gappy, full := uniqueSymbol(t, "COVA"), uniqueSymbol(t, "COVB")
	// gappy: 09:15, 09:16 and 09:18 (09:17 missing) plus a pre-open quote;
	// full: every minute 09:15-09:19.
	postQuotes(t, d.s, d.token, gappy,
		devQuote{day + "T09:05:00", 100, nil}, devQuote{day + "T09:15:05", 100, nil},
		devQuote{day + "T09:16:00", 101, nil}, devQuote{day + "T09:18:30", 102, nil})
	for _, at := range []string{"09:15", "09:16", "09:17", "09:18", "09:19"} {
		postQuotes(t, d.s, d.token, full, devQuote{day + "T" + at + ":00", 50, nil})
	}
	postNifty(t, d.s, d.token, devQuote{day + "T09:15:00", 23000, nil}, devQuote{day + "T15:29:00", 23100, nil})
	postShortlist(t, d.s, d.token, "TOP_GAINERS", "TOP_5", day+"T09:20:00", gappy)

	answer := d.ok("GET", "/v1/dashboard/coverage?date="+day, nil)
	if answer["date"] != day || answer["sessionMinutes"] != 375.0 || answer["sessionStart"] != "2187-06-03T03:45:00Z" {
		t.Errorf("day, session: %v %v %v", answer["date"], answer["sessionMinutes"], answer["sessionStart"])
	}
	g := coverageSymbol(answer, gappy)
	if g == nil {
		t.Fatalf("no coverage of %s in %v", gappy, answer["symbols"])
	}
	if g["minutes"] != 3.0 || g["records"] != "4" {
		t.Errorf("%s: minutes %v records %v, want 3 and 4", gappy, g["minutes"], g["records"])
	}
	if got, want := coverageRanges(g), [][2]float64{{0, 1}, {3, 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("%s ranges %v, want %v (09:17 missing)", gappy, got, want)
	}
	if g["lastTime"] != "2187-06-03T03:48:30Z" {
		t.Errorf("%s lastTime %v", gappy, g["lastTime"])
	}
	if got, want := coverageRanges(coverageSymbol(answer, full)), [][2]float64{{0, 4}}; !reflect.DeepEqual(got, want) {
		t.Errorf("%s ranges %v, want %v", full, got, want)
	}
	nifty := asObject(answer["nifty"])
	if nifty["nseSymbol"] != "NIFTY" || !reflect.DeepEqual(coverageRanges(nifty), [][2]float64{{0, 0}, {374, 374}}) {
		t.Errorf("nifty %v", nifty)
	}
	lists := asSlice(answer["shortlists"])
	if len(lists) != 1 || asObject(lists[0])["shortlistType"] != "TOP_GAINERS" || asObject(lists[0])["scope"] != "TOP_5" ||
		!reflect.DeepEqual(coverageRanges(asObject(lists[0])), [][2]float64{{5, 5}}) {
		t.Errorf("shortlists %v", lists)
	}

	// Each server merges its tallies about once a second: the writer's
	// quotes, NIFTY and shortlist show up, the idle developer does not.
	writerID := d.id
	deadline := time.Now().Add(20 * time.Second)
	var kinds map[string]map[string]any
	for {
		kinds = map[string]map[string]any{}
		for _, w := range asSlice(d.ok("GET", "/v1/dashboard/coverage?date="+day, nil)["writers"]) {
			w := asObject(w)
			if w["developerId"] == id {
				t.Fatalf("a developer that wrote nothing is listed: %v", w)
			}
			if w["developerId"] == writerID {
				kinds[w["kind"].(string)] = w
			}
		}
		if len(kinds) == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	for kind, records := range map[string]string{"quotes": "9", "nifty": "2", "shortlists": "1"} {
		w := kinds[kind]
		if w == nil {
			t.Errorf("no %s writes of the writer listed: %v", kind, kinds)
			continue
		}
		if w["dayRecords"] != records {
			t.Errorf("%s: dayRecords %v, want %s", kind, w["dayRecords"], records)
		}
		written, err := time.Parse(time.RFC3339, w["lastWriteTime"].(string))
		if err != nil || time.Since(written) > 5*time.Minute || time.Until(written) > time.Minute {
			t.Errorf("%s: lastWriteTime %v is not about now", kind, w["lastWriteTime"])
		}
		if w["dayLastWriteTime"] == nil || w["username"] == "" {
			t.Errorf("%s: %v", kind, w)
		}
	}
	if kinds["nifty"] != nil && kinds["nifty"]["lastRecordTime"] != "2187-06-03T09:59:00Z" {
		t.Errorf("nifty lastRecordTime %v", kinds["nifty"]["lastRecordTime"])
	}

	// The backtest clock cuts the day and hides the collectors.
	cut := d.ok("GET", "/v1/dashboard/coverage?date="+day, nil, "X-Current-Timestamp", day+"T09:17:00")
	if got, want := coverageRanges(coverageSymbol(cut, gappy)), [][2]float64{{0, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("cut at 09:17: %v, want %v", got, want)
	}
	if len(asSlice(cut["writers"])) != 0 {
		t.Errorf("writers under the backtest clock: %v", cut["writers"])
	}
	// No date: the latest day with data (before the clock, when set).
	latest := d.ok("GET", "/v1/dashboard/coverage", nil, "X-Current-Timestamp", "2187-06-04T00:00:00")
	if latest["date"] != day || coverageSymbol(latest, gappy) == nil {
		t.Errorf("latest day before 2187-06-04: %v", latest["date"])
	}
	if now := d.ok("GET", "/v1/dashboard/coverage", nil); now["date"].(string) < day {
		t.Errorf("latest day %v, want %s or later", now["date"], day)
	}

	// Bad input names the field; the future is forbidden.
	for _, bad := range []string{"2025-02-30", "20250203", "tomorrow"} {
		if body := d.fails(400, "GET", "/v1/dashboard/coverage?date="+bad, nil); !violationsAre(body, "date") {
			t.Errorf("date=%s: %v", bad, body)
		}
	}
	d.fails(403, "GET", "/v1/dashboard/coverage?date="+day, nil, "X-Current-Timestamp", "2187-06-02T12:00:00")
	d.anonymous().fails(401, "GET", "/v1/dashboard/coverage?date="+day, nil)
}

func TestDashboardAvailableDatetimesOfOneList(t *testing.T) {
	d := newDash(t)
	const day = "2187-07-01"
	postShortlist(t, d.s, d.token, "TOP_GAINERS", "TOP_5", day+"T09:20:00", "LA")
	postShortlist(t, d.s, d.token, "TOP_GAINERS", "TOP_5", day+"T09:25:00", "LA")
	postShortlist(t, d.s, d.token, "VOLUME_SHOCKERS", "TOP_5", day+"T09:30:00", "LB")
	postShortlist(t, d.s, d.token, "TOP_GAINERS", "FULL", day+"T09:35:00", "LC")
	times := func(path string) (count any, stamps []any) {
		for _, dd := range asSlice(d.ok("GET", path, nil)["dates"]) {
			if asObject(dd)["date"] == day {
				return asObject(dd)["count"], asSlice(asObject(dd)["timestamps"])
			}
		}
		return nil, nil
	}
	count, stamps := times("/v1/dashboard/available-datetimes?date=" + day)
	if count != 4.0 || len(stamps) != 4 {
		t.Errorf("every list: %v %v", count, stamps)
	}
	count, stamps = times("/v1/dashboard/available-datetimes?date=" + day + "&type=top-gainers")
	if want := []any{"2187-07-01T03:50:00Z", "2187-07-01T03:55:00Z"}; count != 2.0 || !reflect.DeepEqual(stamps, want) {
		t.Errorf("top gainers, top 5: %v %v, want %v", count, stamps, want)
	}
	count, stamps = times("/v1/dashboard/available-datetimes?date=" + day + "&type=TOP_GAINERS&scope=FULL")
	if want := []any{"2187-07-01T04:05:00Z"}; count != 1.0 || !reflect.DeepEqual(stamps, want) {
		t.Errorf("top gainers, full: %v %v, want %v", count, stamps, want)
	}
	body := d.fails(400, "GET", "/v1/dashboard/available-datetimes?type=TOP_LOSERS", nil)
	if !violationsAre(body, "type") {
		t.Errorf("unknown type: %v", body)
	}
	// A scope alone: that scope's snapshots, of every type.
	count, stamps = times("/v1/dashboard/available-datetimes?date=" + day + "&scope=top-5")
	if count != 3.0 || len(stamps) != 3 {
		t.Errorf("top 5 of every type: %v %v", count, stamps)
	}
	body = d.fails(400, "GET", "/v1/dashboard/available-datetimes?scope=TOP_50", nil)
	if !violationsAre(body, "scope") {
		t.Errorf("unknown scope: %v", body)
	}
}
