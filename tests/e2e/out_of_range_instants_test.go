package e2e

// Instants outside the supported range [1900-01-01T00:00:00Z,
// 2200-01-01T00:00:00Z) (docs/api.md 9.2): collector writes and reads that
// name one are 400 naming the field, and rows stored outside it before the
// range was enforced (inserted here with SQL, as the old server stored them)
// never turn a read into a 500: before the fix the server answered their
// Timestamps out of the range JSON can carry and the gateway failed with 500.

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

const supportedRule = "must be between 1900-01-01 and 2199-12-31 (UTC)"

// outOfRangeWallClocks are wall clocks and zones resolving outside the
// supported range, the last ones only through a far-off offset.
var outOfRangeWallClocks = []struct{ timestamp, timezone string }{
	{"0001-01-01T00:00:00", "Asia/Kolkata"},
	{"0001-01-01T00:00:00", "UTC"},
	{"9999-12-31T23:59:59", "UTC"},
	{"9999-12-31T23:00:00", "-04:00"},
	{"2199-12-31T23:00:00", "-14:00"},
	{"1900-01-01T05:00:00", "+14:00"},
}

func TestOutOfRangeInstantsAreRefusedOnWrite(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	for _, c := range outOfRangeWallClocks {
		data := func(extra map[string]any) map[string]any {
			d := map[string]any{"timestamp": c.timestamp, "timezone": c.timezone}
			for k, v := range extra {
				d[k] = v
			}
			return map[string]any{"data": d}
		}
		writes := []struct {
			path string
			body map[string]any
		}{
			{"/v1/developer/collector/shortlists", data(map[string]any{
				"shortlistType": "TOP_GAINERS", "scope": "FULL",
				"entries": []any{map[string]any{"nseSymbol": "TCS", "name": "TCS", "price": 1}},
			})},
			{"/v1/developer/collector/nifty", data(map[string]any{
				"quoteData": map[string]any{"status": "FAILURE"}, "dayChangePerc": 0,
			})},
			{"/v1/developer/collector/quotes", data(map[string]any{
				"quotes": []any{map[string]any{"nseSymbol": "TCS", "quoteData": map[string]any{"status": "FAILURE"}}},
			})},
		}
		for _, w := range writes {
			t.Run(fmt.Sprintf("%s %s %s", w.path, c.timestamp, c.timezone), func(t *testing.T) {
				r := s.Do(t, "POST", w.path, token, w.body)
				expectFieldError(t, r, 400, "data.timestamp")
				if !strings.Contains(r.Text(), supportedRule) {
					t.Fatalf("message does not state the rule: %s", r.Text())
				}
			})
		}
	}
	// Nothing of it was stored.
	if got := s.SQL(t, "SELECT count(*) FROM out_of_range_instants"); got != "0" {
		t.Fatalf("out_of_range_instants holds %s rows after refused writes", got)
	}
}

func TestOutOfRangeDatetimesAreRefusedOnRead(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	for _, c := range outOfRangeWallClocks {
		zone := url.QueryEscape(c.timezone)
		reads := []struct{ path, field string }{
			{"/v1/developer/nifty?datetime=" + c.timestamp + "&timezone=" + zone, "datetime"},
			{"/v1/developer/quote?symbol=TCS&datetime=" + c.timestamp + "&timezone=" + zone, "datetime"},
			{"/v1/developer/nifty-timeline?start_datetime=" + c.timestamp + "&timezone=" + zone, "start_datetime"},
			{"/v1/developer/quote-timeline?symbol=TCS&end_datetime=" + c.timestamp + "&timezone=" + zone, "end_datetime"},
		}
		for _, read := range reads {
			t.Run(read.path, func(t *testing.T) {
				expectFieldError(t, s.Do(t, "GET", read.path, token, nil), 400, read.field)
			})
		}
	}
}

// A stack of its own: the rows inserted here would show in the shared
// stack's admin listings.
func TestRowsStoredOutOfRangeNeverFailAReadAndAreListed(t *testing.T) {
	s := StartStack(t)
	_, token := s.NewDeveloper(t, "developer")
	// What the old server stored for 0001-01-01T00:00:00 Asia/Kolkata (LMT
	// +05:53:28) and 9999-12-31T23:00:00 -04:00.
	s.SQL(t, `
INSERT INTO nifty_quotes (observed_at, trading_day, day_change_perc, quote_data) VALUES
  ('0001-01-01 00:00:00+05:53:28', '0001-01-01', 0, ''),
  ('9999-12-31 23:00:00-04', '10000-01-01', 0, '');
INSERT INTO stock_quotes (nse_symbol, observed_at, trading_day, last_price, quote_data) VALUES
  ('POISON', '0001-01-01 00:00:00+05:53:28', '0001-01-01', 1, ''),
  ('POISON', '9999-12-31 23:00:00-04', '10000-01-01', 1, '');
INSERT INTO shortlist_snapshots (shortlist_type, scope, observed_at, trading_day, entry_count, entries) VALUES
  ('TOP_GAINERS', 'FULL', '0001-01-01 00:00:00+05:53:28', '0001-01-01', 0, ''),
  ('TOP_GAINERS', 'FULL', '9999-12-31 23:00:00-04', '10000-01-01', 0, '')`)

	reads := []string{
		"/v1/developer/nifty",
		"/v1/developer/quote?symbol=POISON",
		"/v1/developer/lists?type=TOP_GAINERS&scope=FULL",
		"/v1/developer/nifty-timeline?start_datetime=1900-01-01T00:00:00&end_datetime=2199-12-31T23:59:59&timezone=UTC",
		"/v1/developer/quote-timeline?symbol=POISON&start_datetime=1900-01-01T00:00:00&end_datetime=2199-12-31T23:59:59&timezone=UTC",
		"/v1/dashboard/available-datetimes?date=0001-01-01",
		"/v1/dashboard/available-datetimes",
		"/v1/dashboard/daily-unique-companies?date=0001-01-01&type=TOP_GAINERS&scope=FULL",
		"/v1/admin/data/available-dates",
	}
	for _, path := range reads {
		t.Run(path, func(t *testing.T) {
			who := token
			if strings.HasPrefix(path, "/v1/admin/") {
				who = s.AdminToken()
			}
			r := s.Do(t, "GET", path, who, nil)
			if r.Status != 200 && r.Status != 404 {
				t.Fatalf("want 200 or 404, got %v", r)
			}
		})
	}
	// The day of the early rows is readable, its instant clamped to the
	// first one a Timestamp carries.
	r := s.Do(t, "GET", "/v1/dashboard/available-datetimes?date=0001-01-01", token, nil)
	expectStatus(t, r, 200)
	if !strings.Contains(r.Text(), "0001-01-01T00:00:00Z") {
		t.Fatalf("the early snapshot is not listed: %s", r.Text())
	}

	want := strings.Join([]string{
		"nifty_quotes|observed_at|0001-01-01",
		"nifty_quotes|observed_at|10000-01-01",
		"shortlist_snapshots|observed_at|0001-01-01",
		"shortlist_snapshots|observed_at|10000-01-01",
		"stock_quotes|observed_at|0001-01-01",
		"stock_quotes|observed_at|10000-01-01",
	}, "\n")
	got := s.SQL(t, "SELECT table_name, column_name, trading_day FROM out_of_range_instants ORDER BY 1, 3")
	if got != want {
		t.Fatalf("out_of_range_instants:\n%s\nwant:\n%s", got, want)
	}
}
