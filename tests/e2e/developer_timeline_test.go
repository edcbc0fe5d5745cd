package e2e

// Quote and NIFTY timelines (API.md section 3): [start, end), ascending,
// paged so that every record comes back exactly once.

import (
	"fmt"
	"testing"
)

// readTimeline follows nextPageToken to the end and returns the timestamps
// and the number of pages.
func readTimeline(t *testing.T, s *Stack, token, path string, params map[string]string) ([]string, int) {
	t.Helper()
	var stamps []string
	pages := 0
	for {
		r := s.Do(t, "GET", query(path, params), token, nil)
		expectStatus(t, r, 200)
		pages++
		for _, q := range asSlice(r.JSON["quotes"]) {
			stamps = append(stamps, fmt.Sprint(field(q, "timestamp")))
		}
		next, _ := r.JSON["nextPageToken"].(string)
		if next == "" {
			return stamps, pages
		}
		if pages > 100 {
			t.Fatal("more than 100 pages")
		}
		params["pageToken"] = next
	}
}

// minutesFrom lists n UTC stamps a minute apart from an IST wall clock
// hh:mm on 2033-06-07 (IST = UTC+05:30).
func minutesFrom(h, m, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		total := h*60 + m + i - 330
		out = append(out, fmt.Sprintf("2033-06-07T%02d:%02d:00Z", total/60, total%60))
	}
	return out
}

func TestQuoteTimelineIsHalfOpenAndPagedOnce(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	sym := uniqueSymbol(t, "TL")
	var quotes []devQuote
	for i := 0; i < 25; i++ {
		quotes = append(quotes, devQuote{fmt.Sprintf("2033-06-07T09:%02d:00", 15+i), 100 + i, 10 * i})
	}
	quotes = append(quotes, devQuote{"2033-06-06T15:00:00", 1, 1}) // previous day
	postQuotes(t, s, token, sym, quotes...)

	// [09:20, 09:35) in pages of 4: 15 records, 4 pages, each once, in order.
	stamps, pages := readTimeline(t, s, token, "/v1/developer/quote-timeline", map[string]string{
		"symbol": sym, "start_datetime": "2033-06-07T09:20:00", "end_datetime": "2033-06-07T09:35:00", "pageSize": "4"})
	if want := minutesFrom(9, 20, 15); fmt.Sprint(stamps) != fmt.Sprint(want) {
		t.Errorf("paged timeline\n got %v\nwant %v", stamps, want)
	}
	if pages != 4 {
		t.Errorf("%d pages, want 4", pages)
	}
	// camelCase names; start defaults to 09:15 of end's trading day.
	stamps, _ = readTimeline(t, s, token, "/v1/developer/quote-timeline", map[string]string{
		"symbol": sym, "endDatetime": "2033-06-07T09:20:00"})
	if want := minutesFrom(9, 15, 5); fmt.Sprint(stamps) != fmt.Sprint(want) {
		t.Errorf("default start\n got %v\nwant %v", stamps, want)
	}
	// Default page size 100 holds all 25 in one page.
	stamps, pages = readTimeline(t, s, token, "/v1/developer/quote-timeline", map[string]string{
		"symbol": sym, "start_datetime": "2033-06-06T00:00:00", "end_datetime": "2033-06-08T00:00:00"})
	if len(stamps) != 26 || pages != 1 || stamps[0] != "2033-06-06T09:30:00Z" {
		t.Errorf("whole range: %d records in %d pages, first %v", len(stamps), pages, stamps)
	}
	// start == end is empty; start > end is 400.
	r := s.Do(t, "GET", query("/v1/developer/quote-timeline", map[string]string{
		"symbol": sym, "start_datetime": "2033-06-07T09:20:00", "end_datetime": "2033-06-07T09:20:00"}), token, nil)
	expectStatus(t, r, 200)
	if len(asSlice(r.JSON["quotes"])) != 0 {
		t.Errorf("empty window: %s", r.Text())
	}
	r = s.Do(t, "GET", query("/v1/developer/quote-timeline", map[string]string{
		"symbol": sym, "start_datetime": "2033-06-07T09:21:00", "end_datetime": "2033-06-07T09:20:00"}), token, nil)
	expectFieldError(t, r, 400, "start_datetime")
}

func TestNiftyTimelineIsHalfOpenAndPagedOnce(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	var quotes []devQuote
	for i := 0; i < 7; i++ {
		quotes = append(quotes, devQuote{fmt.Sprintf("2033-07-05T10:%02d:00", i), 20000 + i, nil})
	}
	postNifty(t, s, token, quotes...)
	var stamps []string
	pages := 0
	params := map[string]string{"start_datetime": "2033-07-05T10:01:00", "end_datetime": "2033-07-05T10:06:00", "page_size": "2"}
	for {
		r := s.Do(t, "GET", query("/v1/developer/nifty-timeline", params), token, nil)
		expectStatus(t, r, 200)
		pages++
		for _, q := range asSlice(r.JSON["quotes"]) {
			stamps = append(stamps, fmt.Sprint(field(q, "timestamp")))
			if num(t, field(q, "dayChangePerc")) != 0.5 {
				t.Errorf("dayChangePerc missing: %v", q)
			}
		}
		next, _ := r.JSON["nextPageToken"].(string)
		if next == "" || pages > 10 {
			break
		}
		params["page_token"] = next
	}
	want := "[2033-07-05T04:31:00Z 2033-07-05T04:32:00Z 2033-07-05T04:33:00Z 2033-07-05T04:34:00Z 2033-07-05T04:35:00Z]"
	if fmt.Sprint(stamps) != want || pages != 3 {
		t.Errorf("got %v in %d pages, want %s in 3", stamps, pages, want)
	}
}
