package e2e

// Every developer route: missing or malformed parameters are 400 naming the
// parameter; no token is 401.

import (
	"testing"
)

func TestDeveloperRoutesNameBadParameters(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	cases := []struct {
		path, field string
	}{
		{"/v1/developer/collector/check-holiday", "date"},
		{"/v1/developer/collector/check-holiday?date=2034-02-30", "date"},
		{"/v1/developer/collector/check-holiday?date=tomorrow", "date"},
		{"/v1/developer/lists", "type"},
		{"/v1/developer/lists?type=LOSERS", "type"},
		{"/v1/developer/lists?type=TOP_GAINERS&scope=TOP_3", "scope"},
		{"/v1/developer/lists?type=TOP_GAINERS&datetime=2034-01-01", "datetime"},
		{"/v1/developer/lists?type=TOP_GAINERS&datetime=2034-01-01T10:00:00&timezone=Mars/Base", "timezone"},
		{"/v1/developer/quote", "symbol"},
		{"/v1/developer/quote?symbol=BAD%20SYMBOL", "symbol"},
		{"/v1/developer/quote?symbol=X&datetime=2034-01-01T24:00:00", "datetime"},
		{"/v1/developer/quote?symbol=X&timezone=nowhere", "timezone"},
		{"/v1/developer/quote-timeline", "symbol"},
		{"/v1/developer/quote-timeline?symbol=X&start_datetime=yesterday", "start_datetime"},
		{"/v1/developer/quote-timeline?symbol=X&end_datetime=2034-13-01T10:00:00", "end_datetime"},
		{"/v1/developer/quote-timeline?symbol=X&pageSize=-5", "pageSize"},
		{"/v1/developer/quote-timeline?symbol=X&pageToken=not-a-token", "pageToken"},
		{"/v1/developer/nifty?datetime=2034-01-01T10:00", "datetime"},
		{"/v1/developer/nifty-timeline?start_datetime=2034-01-01T10:00:60", "start_datetime"},
		{"/v1/developer/nifty-timeline?page_token=%21%21", "pageToken"},
		{"/v1/developer/historical-candles?interval=1minute", "symbol"},
		{"/v1/developer/historical-candles?symbol=X", "interval"},
		{"/v1/developer/historical-candles?symbol=X&interval=7minute", "interval"},
		{"/v1/developer/historical-candles?symbol=X&interval=1day&end_datetime=2034-01-01", "end_datetime"},
		{"/v1/developer/shortlists/persistence", "type"},
		{"/v1/developer/shortlists/persistence?type=TOP_GAINERS&timezone=%2B25:00", "timezone"},
		{"/v1/developer/holidays?year=99999", "year"},
		{"/v1/developer/holidays?year=abc", "year"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := s.Do(t, "GET", c.path, token, nil)
			expectStatus(t, r, 400)
			expectMessageNames(t, r, c.field)
		})
	}
}

func TestDeveloperRoutesNeedAToken(t *testing.T) {
	s := SharedStack(t)
	for _, path := range []string{
		"/v1/developer/collector/check-holiday?date=2034-01-02",
		"/v1/developer/lists?type=TOP_GAINERS",
		"/v1/developer/quote?symbol=X",
		"/v1/developer/quote-timeline?symbol=X",
		"/v1/developer/nifty",
		"/v1/developer/nifty-timeline",
		"/v1/developer/historical-candles?symbol=X&interval=1minute",
		"/v1/developer/shortlists/persistence?type=TOP_GAINERS",
		"/v1/developer/token",
		"/v1/developer/holidays",
	} {
		for _, token := range []string{"", "mdc_not-a-real-token"} {
			r := s.Do(t, "GET", path, token, nil)
			if r.Status != 401 {
				t.Errorf("%s with token %q: %v, want 401", path, token, r)
			}
		}
	}
}
