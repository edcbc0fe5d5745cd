package e2e

// Shortlist persistence (API.md section 5.1).

import (
	"testing"
)

func TestShortlistPersistence(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2034-01-03T10:00:00", "PA", "PB", "PC")
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2034-01-03T10:01:00") // empty: not counted
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2034-01-03T10:02:00", "PB", "PA")
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2034-01-03T10:03:00", "PA")
	postShortlist(t, s, token, "TOP_GAINERS", "TOP_5", "2034-01-03T10:04:00", "OUT") // after end
	postShortlist(t, s, token, "TOP_GAINERS", "FULL", "2034-01-03T10:02:00", "OTHER")

	r := s.Do(t, "GET", query("/v1/developer/shortlists/persistence", map[string]string{
		"type": "top-gainers", "start_datetime": "2034-01-03T10:00:00", "end_datetime": "2034-01-03T10:03:00"}), token, nil)
	expectStatus(t, r, 200)
	if num(t, r.JSON["totalSnapshots"]) != 3 || r.JSON["type"] != "TOP_GAINERS" || r.JSON["scope"] != "TOP_5" {
		t.Errorf("header: %s", r.Text())
	}
	if r.JSON["startTime"] != "2034-01-03T04:30:00Z" || r.JSON["endTime"] != "2034-01-03T04:33:00Z" {
		t.Errorf("bounds: %s", r.Text())
	}
	want := []struct {
		symbol  string
		count   float64
		percent float64
	}{{"PA", 3, 100}, {"PB", 2, 66.7}, {"PC", 1, 33.3}}
	got := asSlice(r.JSON["instruments"])
	if len(got) != len(want) {
		t.Fatalf("instruments: %s", r.Text())
	}
	for i, w := range want {
		g := got[i]
		if field(g, "nseSymbol") != w.symbol || field(g, "name") != w.symbol+" Ltd" ||
			num(t, field(g, "appearanceCount")) != w.count || num(t, field(g, "percentage")) != w.percent {
			t.Errorf("instrument %d: %v, want %+v", i, g, w)
		}
	}

	expectFieldError(t, s.Do(t, "GET", "/v1/developer/shortlists/persistence?start_datetime=2034-01-03T10:00:00", token, nil), 400, "type")
	expectFieldError(t, s.Do(t, "GET", "/v1/developer/shortlists/persistence?type=TOP_GAINERS&scope=TOP_7", token, nil), 400, "scope")
	expectFieldError(t, s.Do(t, "GET", query("/v1/developer/shortlists/persistence", map[string]string{
		"type": "TOP_GAINERS", "start_datetime": "2034-01-03T10:04:00", "end_datetime": "2034-01-03T10:03:00"}), token, nil), 400, "start_datetime")
}
