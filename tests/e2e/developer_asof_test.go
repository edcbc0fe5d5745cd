package e2e

// As-of reads (API.md section 3): the latest record at or before t on t's
// trading day, 404 otherwise.

import (
	"testing"
)

func TestQuoteAsOfEdges(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "ASOF")
	postQuotes(t, s, token, sym,
		devQuote{"2033-03-07T15:20:00", 90, 10}, // Monday: the previous trading day
		devQuote{"2033-03-08T12:00:00", 100, 20},
		devQuote{"2033-03-08T12:00:30", 101, 30})
	cases := []struct {
		datetime string
		status   int
		stamp    string
		price    float64
	}{
		{"2033-03-08T12:00:00", 200, "2033-03-08T06:30:00Z", 100},
		{"2033-03-08T12:00:29", 200, "2033-03-08T06:30:00Z", 100},
		{"2033-03-08T12:00:30", 200, "2033-03-08T06:30:30Z", 101},
		{"2033-03-08T11:59:59", 404, "", 0},
		{"2033-03-08T09:15:00", 404, "", 0}, // Monday's quote is never returned
		{"2033-03-09T10:00:00", 404, "", 0}, // nor Tuesday's on Wednesday
	}
	for _, c := range cases {
		r := s.Do(t, "GET", query("/v1/developer/quote", map[string]string{"symbol": sym, "datetime": c.datetime}), token, nil)
		if r.Status != c.status {
			t.Errorf("as of %s: %v, want %d", c.datetime, r, c.status)
			continue
		}
		if c.status != 200 {
			expectMessageNames(t, r, "2033-03-")
			continue
		}
		if r.JSON["timestamp"] != c.stamp || r.JSON["nseSymbol"] != sym {
			t.Errorf("as of %s: %s", c.datetime, r.Text())
		}
		if got := num(t, field(r.JSON, "quoteData", "payload", "last_price")); got != c.price {
			t.Errorf("as of %s: last_price %v, want %v", c.datetime, got, c.price)
		}
	}
	// A UTC wall clock means the same instant.
	r := s.Do(t, "GET", query("/v1/developer/quote", map[string]string{"symbol": sym, "datetime": "2033-03-08T06:30:29", "timezone": "UTC"}), token, nil)
	expectStatus(t, r, 200)
	if r.JSON["timestamp"] != "2033-03-08T06:30:00Z" {
		t.Errorf("UTC as-of: %s", r.Text())
	}
	// Without datetime: the latest stored.
	r = s.Do(t, "GET", "/v1/developer/quote?symbol="+sym, token, nil)
	expectStatus(t, r, 200)
	if r.JSON["timestamp"] != "2033-03-08T06:30:30Z" {
		t.Errorf("latest: %s", r.Text())
	}
	expectStatus(t, s.Do(t, "GET", "/v1/developer/quote?symbol="+uniqueSymbol(t, "NONE"), token, nil), 404)
}

func TestNiftyAsOfEdges(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	postNifty(t, s, token,
		devQuote{"2033-04-04T15:00:00", 20000, nil},
		devQuote{"2033-04-05T12:00:00", 20100, nil},
		devQuote{"2033-04-05T12:00:30", 20200, nil})
	cases := []struct {
		datetime string
		status   int
		stamp    string
	}{
		{"2033-04-05T12:00:00", 200, "2033-04-05T06:30:00Z"},
		{"2033-04-05T12:00:29", 200, "2033-04-05T06:30:00Z"},
		{"2033-04-05T11:59:59", 404, ""},
		{"2033-04-05T09:00:00", 404, ""},
	}
	for _, c := range cases {
		r := s.Do(t, "GET", "/v1/developer/nifty?datetime="+c.datetime, token, nil)
		if r.Status != c.status || (c.status == 200 && r.JSON["timestamp"] != c.stamp) {
			t.Errorf("as of %s: %v, want %d %s", c.datetime, r, c.status, c.stamp)
		}
		if c.status == 200 && num(t, r.JSON["dayChangePerc"]) != 0.5 {
			t.Errorf("dayChangePerc: %s", r.Text())
		}
	}
}

func TestListAsOfEdges(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	postShortlist(t, s, token, "VOLUME_SHOCKERS", "FULL", "2033-05-02T15:00:00", "OLD")
	postShortlist(t, s, token, "VOLUME_SHOCKERS", "FULL", "2033-05-03T12:00:00", "FIRST")
	postShortlist(t, s, token, "VOLUME_SHOCKERS", "FULL", "2033-05-03T12:00:30", "SECOND")
	cases := []struct {
		datetime string
		status   int
		symbol   string
	}{
		{"2033-05-03T12:00:00", 200, "FIRST"},
		{"2033-05-03T12:00:29", 200, "FIRST"},
		{"2033-05-03T12:00:30", 200, "SECOND"},
		{"2033-05-03T11:59:59", 404, ""},
	}
	for _, c := range cases {
		// Both spellings of the type.
		for _, typ := range []string{"VOLUME_SHOCKERS", "volume-shockers"} {
			r := s.Do(t, "GET", query("/v1/developer/lists", map[string]string{"type": typ, "scope": "FULL", "datetime": c.datetime}), token, nil)
			if r.Status != c.status {
				t.Errorf("%s as of %s: %v, want %d", typ, c.datetime, r, c.status)
				continue
			}
			if c.status == 200 {
				entries := asSlice(r.JSON["entries"])
				if len(entries) != 1 || field(entries[0], "nseSymbol") != c.symbol {
					t.Errorf("%s as of %s: %s, want %s", typ, c.datetime, r.Text(), c.symbol)
				}
			}
		}
	}
	// Scope defaults to TOP_5, where nothing was stored.
	expectStatus(t, s.Do(t, "GET", "/v1/developer/lists?type=VOLUME_SHOCKERS&datetime=2033-05-03T12:00:30", token, nil), 404)
}
