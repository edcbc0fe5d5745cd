package e2e

// End-to-end tests of the collector writes (API.md 2.1-2.3) and the reads
// that close the loop (lists, nifty, admin available-dates), through the real
// gateway and server against real PostgreSQL.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// utcSpellings are the zone spellings every seed body is posted with.
var utcSpellings = []string{"UTC", "Etc/UTC", "etc/UTC"}

// seedBody reads a request body from testdata and sets data.timezone and,
// when not empty, data.timestamp.
func seedBody(t *testing.T, file, timezone, timestamp string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	var body map[string]any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("parse %s: %v", file, err)
	}
	data := body["data"].(map[string]any)
	data["timezone"] = timezone
	if timestamp != "" {
		data["timestamp"] = timestamp
	}
	return body
}

// withoutNulls drops null members recursively: a null payload field is
// stored as absent and read back absent.
func withoutNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if val != nil {
				out[k] = withoutNulls(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = withoutNulls(val)
		}
		return out
	}
	return v
}

func TestSeedShortlistRoundTripsInEveryUtcSpelling(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	for i, zone := range utcSpellings {
		t.Run(zone, func(t *testing.T) {
			// A distinct minute per spelling keeps the records apart.
			stamp := fmt.Sprintf("2031-01-06T04:%02d:00", 10+i)
			body := seedBody(t, "shortlist_top_gainers_full.json", zone, stamp)
			r := s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body)
			expectStatus(t, r, 200)
			if r.Text() != "{}" {
				t.Fatalf("body %q, want {}", r.Text())
			}
			got := s.Do(t, "GET", "/v1/developer/lists?type=TOP_GAINERS&scope=FULL&datetime="+stamp+"&timezone="+zone, token, nil)
			expectStatus(t, got, 200)
			if want := stamp + "Z"; got.JSON["timestamp"] != want {
				t.Errorf("timestamp %v, want %s", got.JSON["timestamp"], want)
			}
			if got.JSON["shortlistType"] != "TOP_GAINERS" || got.JSON["scope"] != "FULL" {
				t.Errorf("type/scope: %s", got.Text())
			}
			sent := body["data"].(map[string]any)["entries"]
			if mustJSON(got.JSON["entries"]) != mustJSON(sent) {
				t.Errorf("entries\n got %s\nwant %s", mustJSON(got.JSON["entries"]), mustJSON(sent))
			}
		})
	}
}

func TestSeedNiftyBodiesRoundTripInEveryUtcSpelling(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	for f, file := range []string{"nifty_long.json", "nifty_short.json"} {
		for i, zone := range utcSpellings {
			t.Run(file+"/"+zone, func(t *testing.T) {
				stamp := fmt.Sprintf("2031-01-07T0%d:%02d:00", 4+f, 10+i)
				body := seedBody(t, file, zone, stamp)
				r := s.Do(t, "POST", "/v1/developer/collector/nifty", token, body)
				expectStatus(t, r, 200)
				if r.Text() != "{}" {
					t.Fatalf("body %q, want {}", r.Text())
				}
				got := s.Do(t, "GET", "/v1/developer/nifty?datetime="+stamp+"&timezone="+zone, token, nil)
				expectStatus(t, got, 200)
				if want := stamp + "Z"; got.JSON["timestamp"] != want {
					t.Errorf("timestamp %v, want %s", got.JSON["timestamp"], want)
				}
				sent := body["data"].(map[string]any)
				if mustJSON(got.JSON["quoteData"]) != mustJSON(withoutNulls(sent["quoteData"])) {
					t.Errorf("quoteData\n got %s\nwant %s", mustJSON(got.JSON["quoteData"]), mustJSON(withoutNulls(sent["quoteData"])))
				}
				if fmt.Sprint(got.JSON["dayChangePerc"]) != fmt.Sprint(sent["dayChangePerc"]) {
					t.Errorf("dayChangePerc %v, want %v", got.JSON["dayChangePerc"], sent["dayChangePerc"])
				}
			})
		}
	}
}

func TestKolkataWallClockIsStoredAsUtcInstant(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "shortlist_top_gainers_full.json", "Asia/Kolkata", "2025-12-31T09:15:00")
	body["data"].(map[string]any)["shortlistType"] = "VOLUME_SHOCKERS"
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body), 200)
	got := s.Do(t, "GET", "/v1/developer/lists?type=volume-shockers&scope=FULL&datetime=2025-12-31T09:15:00", token, nil)
	expectStatus(t, got, 200)
	if got.JSON["timestamp"] != "2025-12-31T03:45:00Z" {
		t.Errorf("timestamp %v, want 2025-12-31T03:45:00Z", got.JSON["timestamp"])
	}
	stored := s.SQL(t, "SELECT to_char(observed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') FROM shortlist_snapshots WHERE shortlist_type = 'VOLUME_SHOCKERS' AND trading_day = '2025-12-31'")
	if stored != "2025-12-31 03:45:00" {
		t.Errorf("stored instant %q", stored)
	}
}

func TestPostingTheSameShortlistTwiceKeepsOneRecord(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "shortlist_top_gainers_full.json", "UTC", "2031-01-08T05:00:00")
	for i := 0; i < 2; i++ {
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body), 200)
	}
	if n := s.SQL(t, "SELECT count(*) FROM shortlist_snapshots WHERE observed_at = '2031-01-08T05:00:00Z'"); n != "1" {
		t.Fatalf("%s records, want 1", n)
	}
	// Last write wins: a second post with other entries replaces the first.
	body["data"].(map[string]any)["entries"] = []any{}
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body), 200)
	got := s.Do(t, "GET", "/v1/developer/lists?type=TOP_GAINERS&scope=FULL&datetime=2031-01-08T05:00:00&timezone=UTC", token, nil)
	expectStatus(t, got, 200)
	if len(asSlice(got.JSON["entries"])) != 0 {
		t.Fatalf("entries %s, want the empty list of the last write", got.Text())
	}
	if n := s.SQL(t, "SELECT count(*) FROM shortlist_snapshots WHERE observed_at = '2031-01-08T05:00:00Z'"); n != "1" {
		t.Fatalf("%s records, want 1", n)
	}
}

func TestWriterIsRecorded(t *testing.T) {
	s := SharedStack(t)
	id, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "nifty_short.json", "UTC", "2031-01-09T05:00:00")
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, body), 200)
	if w := s.SQL(t, "SELECT written_by FROM nifty_quotes WHERE observed_at = '2031-01-09T05:00:00Z'"); w != id {
		t.Fatalf("written_by %q, want %q", w, id)
	}
}

// The collector writes look their writer up in the write statement itself
// (one statement per request); the answers must stay those of a separate
// token check: 401 before anything else, nothing stored, last-seen stamped.
func TestCollectorWritesAuthenticateThemselves(t *testing.T) {
	s := SharedStack(t)
	admin := s.AdminToken()
	routes := []struct {
		path, file, table, stored string
	}{
		{"/v1/developer/collector/shortlists", "shortlist_top_gainers_full.json", "shortlist_snapshots", "2031-01-15T05:00:00Z"},
		{"/v1/developer/collector/nifty", "nifty_short.json", "nifty_quotes", "2031-01-15T05:00:00Z"},
		{"/v1/developer/collector/quotes", "quotes_batch.json", "stock_quotes", "2031-01-15T05:00:00Z"},
	}
	storedCount := func(table, at string) string {
		return s.SQL(t, "SELECT count(*) FROM "+table+" WHERE observed_at = '"+at+"'")
	}
	goneID, gone := s.NewDeveloper(t, "developer")
	expectStatus(t, s.Do(t, "DELETE", "/v1/admin/developers/"+goneID, admin, nil), 200)
	for _, route := range routes {
		valid := seedBody(t, route.file, "UTC", "2031-01-15T05:00:00")
		invalid := seedBody(t, route.file, "UTC", "2031-01-15T05:00:00")
		invalid["data"].(map[string]any)["timezone"] = "Mars/Olympus"
		t.Run(route.path, func(t *testing.T) {
			for _, token := range []string{"mdc_not-a-real-token", gone} {
				expectStatus(t, s.Do(t, "POST", route.path, token, valid), 401)
				expectStatus(t, s.Do(t, "POST", route.path, token, invalid), 401)
			}
			if n := storedCount(route.table, route.stored); n != "0" {
				t.Fatalf("%s rows stored by unknown tokens", n)
			}
			id, token := s.NewDeveloper(t, "developer")
			expectFieldError(t, s.Do(t, "POST", route.path, token, invalid), 400, "data.timezone")
			expectStatus(t, s.Do(t, "POST", route.path, token, valid), 200)
			if w := s.SQL(t, "SELECT DISTINCT written_by FROM "+route.table+" WHERE observed_at = '"+route.stored+"'"); w != id {
				t.Fatalf("written_by %q, want %q", w, id)
			}
			if seen := s.SQL(t, "SELECT last_seen_at IS NOT NULL FROM developers WHERE id = "+id); seen != "t" {
				t.Fatalf("last_seen_at not stamped by a collector write")
			}
			// An admin token may write too, and is recorded as the writer.
			expectStatus(t, s.Do(t, "POST", route.path, admin, valid), 200)
			if w := s.SQL(t, "SELECT DISTINCT written_by FROM "+route.table+" WHERE observed_at = '"+route.stored+"'"); w == id {
				t.Fatalf("the admin's write did not replace the writer")
			}
		})
	}
}

func TestSaveQuotesStoresTheBatchAtomically(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "quotes_batch.json", "Asia/Kolkata", "2031-01-10T10:00:00")
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, body), 200)
	if n := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE observed_at = '2031-01-10T04:30:00Z'"); n != "2" {
		t.Fatalf("%s quotes stored, want 2", n)
	}
	// One bad quote refuses the whole batch.
	bad := seedBody(t, "quotes_batch.json", "Asia/Kolkata", "2031-01-10T11:00:00")
	quotes := bad["data"].(map[string]any)["quotes"].([]any)
	quotes[1].(map[string]any)["quoteData"] = map[string]any{"status": "SUCCESS", "payload": map[string]any{"last_price": "NaN"}}
	r := s.Do(t, "POST", "/v1/developer/collector/quotes", token, bad)
	expectFieldError(t, r, 400, "data.quotes[1].quoteData.payload.last_price")
	if n := s.SQL(t, "SELECT count(*) FROM stock_quotes WHERE observed_at = '2031-01-10T05:30:00Z'"); n != "0" {
		t.Fatalf("%s quotes stored from a refused batch", n)
	}
}

func TestUnknownFieldsAreIgnored(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "shortlist_top_gainers_full.json", "UTC", "2031-01-11T05:00:00")
	body["upstreamVersion"] = 7
	data := body["data"].(map[string]any)
	data["source"] = "nse"
	data["entries"].([]any)[0].(map[string]any)["sector"] = "Energy"
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, body), 200)
}

func TestBadCollectorInputIsRefusedNamingTheField(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	const stamp = "2031-01-12T05:00:00"
	shortlist := func(edit func(data map[string]any)) map[string]any {
		b := seedBody(t, "shortlist_top_gainers_full.json", "UTC", stamp)
		edit(b["data"].(map[string]any))
		return b
	}
	nifty := func(edit func(data map[string]any)) map[string]any {
		b := seedBody(t, "nifty_long.json", "UTC", stamp)
		edit(b["data"].(map[string]any))
		return b
	}
	const shortlists = "/v1/developer/collector/shortlists"
	const niftyPath = "/v1/developer/collector/nifty"
	cases := []struct {
		name   string
		path   string
		body   any
		status int
		field  string
	}{
		{"empty body shortlist", shortlists, "{}", 400, "data"},
		{"empty body nifty", niftyPath, "{}", 400, "data"},
		{"missing timestamp", shortlists, shortlist(func(d map[string]any) { delete(d, "timestamp") }), 400, "data.timestamp"},
		{"missing shortlistType", shortlists, shortlist(func(d map[string]any) { delete(d, "shortlistType") }), 400, "data.shortlistType"},
		{"missing entries", shortlists, shortlist(func(d map[string]any) { delete(d, "entries") }), 400, "data.entries"},
		{"null entries", shortlists, shortlist(func(d map[string]any) { d["entries"] = nil }), 400, "data.entries"},
		{"missing quoteData", niftyPath, nifty(func(d map[string]any) { delete(d, "quoteData") }), 400, "data.quoteData"},
		{"missing dayChangePerc", niftyPath, nifty(func(d map[string]any) { delete(d, "dayChangePerc") }), 400, "data.dayChangePerc"},
		{"invalid-date", shortlists, shortlist(func(d map[string]any) { d["timestamp"] = "invalid-date" }), 400, "data.timestamp"},
		{"February 30", shortlists, shortlist(func(d map[string]any) { d["timestamp"] = "2025-02-30T10:00:00" }), 400, "data.timestamp"},
		{"hour 24", niftyPath, nifty(func(d map[string]any) { d["timestamp"] = "2025-12-31T24:00:00" }), 400, "data.timestamp"},
		{"month 13", niftyPath, nifty(func(d map[string]any) { d["timestamp"] = "2025-13-45T10:00:00" }), 400, "data.timestamp"},
		{"unknown shortlistType", shortlists, shortlist(func(d map[string]any) { d["shortlistType"] = "TOP_LOSERS" }), 400, "data.shortlistType"},
		{"price abc", shortlists, shortlist(func(d map[string]any) { d["entries"].([]any)[1].(map[string]any)["price"] = "abc" }), 400, "data.entries[1].price"},
		{"negative price", shortlists, shortlist(func(d map[string]any) { d["entries"].([]any)[0].(map[string]any)["price"] = -1 }), 400, "data.entries[0].price"},
		{"missing nseSymbol", shortlists, shortlist(func(d map[string]any) { delete(d["entries"].([]any)[2].(map[string]any), "nseSymbol") }), 400, "data.entries[2].nseSymbol"},
		{"unknown zone", shortlists, shortlist(func(d map[string]any) { d["timezone"] = "Mars/Olympus" }), 400, "data.timezone"},
		{"unknown status", niftyPath, nifty(func(d map[string]any) { d["quoteData"].(map[string]any)["status"] = "MAYBE" }), 400, "data.quoteData.status"},
		{"timestamp is a number", niftyPath, nifty(func(d map[string]any) { d["timestamp"] = 20251231 }), 400, "data.timestamp"},
		{"malformed JSON", shortlists, `{"data": {"timestamp": "2031-01-12T05:00:00",`, 400, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.Do(t, "POST", c.path, token, c.body)
			if c.field == "" {
				expectStatus(t, r, c.status)
			} else {
				expectFieldError(t, r, c.status, c.field)
			}
		})
	}
	if n := s.SQL(t, "SELECT (SELECT count(*) FROM shortlist_snapshots WHERE observed_at = '2031-01-12T05:00:00Z') + (SELECT count(*) FROM nifty_quotes WHERE observed_at = '2031-01-12T05:00:00Z')"); n != "0" {
		t.Fatalf("%s records stored by refused requests", n)
	}
}

func TestBodyOverFourMebibytesIs413(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	big := `{"data":{"timestamp":"2031-01-13T05:00:00","shortlistType":"TOP_GAINERS","entries":[],"pad":"` + strings.Repeat("x", 5<<20) + `"}}`
	r := s.Do(t, "POST", "/v1/developer/collector/shortlists", token, big)
	expectStatus(t, r, http.StatusRequestEntityTooLarge)
	if n := s.SQL(t, "SELECT count(*) FROM shortlist_snapshots WHERE observed_at = '2031-01-13T05:00:00Z'"); n != "0" {
		t.Fatalf("a refused body stored %s records", n)
	}
}

func TestCollectorAuthentication(t *testing.T) {
	s := SharedStack(t)
	_, developer := s.NewDeveloper(t, "developer")
	body := seedBody(t, "shortlist_top_gainers_full.json", "UTC", "2031-01-14T05:00:00")
	const path = "/v1/developer/collector/shortlists"
	cases := []struct {
		name          string
		authorization string
		status        int
	}{
		{"no Authorization", "", 401},
		{"Basic scheme", "Basic " + developer, 401},
		{"Bearer without token", "Bearer ", 401},
		{"unknown token", "Bearer mdc_not-a-real-token", 401},
		{"lower-case scheme", "bearer " + developer, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.DoWithAuthorization(t, "POST", path, c.authorization, body)
			expectStatus(t, r, c.status)
		})
	}
	t.Run("developer token on an admin route", func(t *testing.T) {
		expectStatus(t, s.Do(t, "GET", "/v1/admin/data/available-dates", developer, nil), 403)
		expectStatus(t, s.Do(t, "POST", "/v1/admin/developers", developer, map[string]any{"username": "sneaky"}), 403)
	})
	t.Run("401 carries WWW-Authenticate", func(t *testing.T) {
		r := s.Do(t, "POST", path, "", body)
		if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("WWW-Authenticate %q", r.Header.Get("WWW-Authenticate"))
		}
	})
}

func TestAvailableDatesCountRowsPerTradingDay(t *testing.T) {
	s := StartStack(t) // counts are per database: a private stack
	_, token := s.NewDeveloper(t, "developer")
	// 23:30 UTC on the 14th is 05:00 IST on the 15th: the trading day is the 15th.
	for _, stamp := range []string{"2031-01-14T23:30:00", "2031-01-15T05:00:00"} {
		expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, seedBody(t, "shortlist_top_gainers_full.json", "UTC", stamp)), 200)
	}
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, seedBody(t, "nifty_short.json", "UTC", "2031-01-15T05:00:00")), 200)
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/quotes", token, seedBody(t, "quotes_batch.json", "UTC", "2031-01-15T05:00:00")), 200)
	r := s.Do(t, "GET", "/v1/admin/data/available-dates", s.AdminToken(), nil)
	expectStatus(t, r, 200)
	want := `[{"date":"2031-01-15","niftyCount":1,"quoteCount":2,"shortlistCount":2}]`
	if got := mustJSON(r.JSON["dates"]); got != want {
		t.Fatalf("dates %s, want %s", got, want)
	}
}

func TestGatewayAnswers503WhenTheServerIsDown(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	s.StopServer(t)
	start := time.Now()
	r := s.Do(t, "POST", "/v1/developer/collector/shortlists", token, seedBody(t, "shortlist_top_gainers_full.json", "UTC", "2031-01-16T05:00:00"))
	expectStatus(t, r, http.StatusServiceUnavailable)
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Fatalf("503 took %v: the gateway must not hang", elapsed)
	}
	s.StartServer(t)
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/shortlists", token, seedBody(t, "shortlist_top_gainers_full.json", "UTC", "2031-01-16T05:00:00")), 200)
}

func TestAsOfReadsOnTheSeedPath(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	body := seedBody(t, "nifty_short.json", "Asia/Kolkata", "2031-01-17T12:00:00")
	expectStatus(t, s.Do(t, "POST", "/v1/developer/collector/nifty", token, body), 200)
	cases := []struct {
		datetime string
		status   int
	}{
		{"2031-01-17T12:00:00", 200},
		{"2031-01-17T12:00:29", 200},
		{"2031-01-17T11:59:59", 404},
		{"2031-01-18T09:15:00", 404}, // the next trading day never sees it
	}
	for _, c := range cases {
		r := s.Do(t, "GET", "/v1/developer/nifty?datetime="+c.datetime, token, nil)
		if r.Status != c.status {
			t.Errorf("as of %s: %d, want %d (%s)", c.datetime, r.Status, c.status, r.Text())
		}
	}
	bad := s.Do(t, "GET", "/v1/developer/lists?type=TOP_GAINERS&datetime=2031-02-30T10:00:00", token, nil)
	expectFieldError(t, bad, 400, "datetime")
	bad = s.Do(t, "GET", "/v1/developer/lists?type=NOPE", token, nil)
	expectFieldError(t, bad, 400, "type")
}
