package e2e

import (
	"fmt"
	"reflect"
	"testing"
)

// dashCompanies reads `dashCompanies` as (symbol, count, percentage) triples.
func dashCompanies(answer map[string]any) [][3]any {
	var out [][3]any
	for _, c := range dashList(answer, "companies") {
		out = append(out, [3]any{dashObj(c)["nseSymbol"], dashObj(c)["count"], dashObj(c)["percentage"]})
	}
	return out
}

func TestDashboardDailyPersistentCompanies(t *testing.T) {
	d := newDash(t)
	const day = "2025-02-04"
	// Ten TOP_GAINERS TOP_5 snapshots: A in 10, B in 8, C in 7. The FULL
	// snapshots at the same instants hold other symbols: scopes do not mix.
	for i := 0; i < 10; i++ {
		at := fmt.Sprintf("%sT10:%02d:00", day, i)
		symbols := []string{"PA"}
		if i < 8 {
			symbols = append(symbols, "PB")
		}
		if i >= 3 {
			symbols = append(symbols, "PC")
		}
		d.saveShortlist("TOP_GAINERS", "TOP_5", at, 10, symbols...)
		d.saveShortlist("TOP_GAINERS", "FULL", at, 10, "PFULL")
	}
	path := "/v1/dashboard/daily-persistent-companies?date=" + day + "&type=TOP_GAINERS"
	answer := d.ok("GET", path, nil) // scope defaults to TOP_5, minPercentage to 80
	if answer["totalSnapshots"] != 10.0 || answer["scope"] != "TOP_5" || answer["date"] != day {
		t.Errorf("answer %v", answer)
	}
	want := [][3]any{{"PA", 10.0, 100.0}, {"PB", 8.0, 80.0}}
	if got := dashCompanies(answer); !reflect.DeepEqual(got, want) {
		t.Errorf("companies %v, want %v", got, want)
	}
	answer = d.ok("GET", path+"&minPercentage=70", nil)
	want = [][3]any{{"PA", 10.0, 100.0}, {"PB", 8.0, 80.0}, {"PC", 7.0, 70.0}}
	if got := dashCompanies(answer); !reflect.DeepEqual(got, want) {
		t.Errorf("at 70%%: companies %v, want %v", got, want)
	}
	answer = d.ok("GET", path+"&scope=full", nil)
	want = [][3]any{{"PFULL", 10.0, 100.0}}
	if got := dashCompanies(answer); !reflect.DeepEqual(got, want) {
		t.Errorf("FULL: companies %v, want %v", got, want)
	}
	answer = d.ok("GET", "/v1/dashboard/daily-persistent-companies?date="+day+"&type=VOLUME_SHOCKERS", nil)
	if answer["totalSnapshots"] != nil && answer["totalSnapshots"] != 0.0 || len(dashList(answer, "companies")) != 0 {
		t.Errorf("other type: %v", answer)
	}

	body := d.fails(400, "GET", "/v1/dashboard/daily-persistent-companies?date=2025-13-01&minPercentage=101", nil)
	for _, f := range []string{"date", "type", "minPercentage"} {
		if !dashHasField(body, f) {
			t.Errorf("want a violation of %s: %v", f, body)
		}
	}
	// A day at or after the backtest clock is the future.
	d.fails(403, "GET", path, nil, "X-Current-Timestamp", "2025-02-03T12:00:00")
	// The clock cuts the day: by 10:05 only five snapshots exist.
	answer = d.ok("GET", path, nil, "X-Current-Timestamp", day+"T10:05:00")
	if answer["totalSnapshots"] != 5.0 {
		t.Errorf("cut at the clock: %v", answer)
	}
}

func TestDashboardPersistentCountsEmptySnapshots(t *testing.T) {
	d := newDash(t)
	const day = "2025-02-05"
	// A in 8 snapshots, B in 7 of them, and 2 empty snapshots: of 10, 80%
	// needs 8, so only A. Were the empty ones skipped, 80% of 8 would need
	// 7 and B would be listed too.
	for i := 0; i < 10; i++ {
		at := fmt.Sprintf("%sT11:%02d:00", day, i)
		switch {
		case i < 7:
			d.saveShortlist("TOP_GAINERS", "TOP_5", at, 10, "EA", "EB")
		case i < 8:
			d.saveShortlist("TOP_GAINERS", "TOP_5", at, 10, "EA")
		default:
			d.saveShortlist("TOP_GAINERS", "TOP_5", at, 10)
		}
	}
	answer := d.ok("GET", "/v1/dashboard/daily-persistent-companies?date="+day+"&type=top-gainers", nil)
	if answer["totalSnapshots"] != 10.0 {
		t.Errorf("totalSnapshots %v, want 10", answer["totalSnapshots"])
	}
	want := [][3]any{{"EA", 8.0, 80.0}}
	if got := dashCompanies(answer); !reflect.DeepEqual(got, want) {
		t.Errorf("companies %v, want %v", got, want)
	}
}

func TestDashboardDailyUniqueCompanies(t *testing.T) {
	d := newDash(t)
	const day = "2025-02-06"
	// Two snapshots at one instant, of two types: ten dashCompanies in all.
	d.saveShortlist("TOP_GAINERS", "TOP_5", day+"T10:00:00", 10, "U0", "U1", "U2", "U3", "U4")
	d.saveShortlist("VOLUME_SHOCKERS", "TOP_5", day+"T10:00:00", 10, "U5", "U6", "U7", "U8", "U9")
	// A later snapshot repeating some of them, and a FULL one that must not
	// count in TOP_5.
	d.saveShortlist("TOP_GAINERS", "TOP_5", day+"T10:01:00", 10, "U0", "U5")
	d.saveShortlist("TOP_GAINERS", "FULL", day+"T10:00:00", 10, "UFULL")

	answer := d.ok("GET", "/v1/dashboard/daily-unique-companies?date="+day, nil)
	wantAll := []any{"U0", "U1", "U2", "U3", "U4", "U5", "U6", "U7", "U8", "U9"}
	if answer["uniqueCount"] != 10.0 || !reflect.DeepEqual(dashList(answer, "symbols"), wantAll) {
		t.Errorf("every type: %v", answer)
	}
	answer = d.ok("GET", "/v1/dashboard/daily-unique-companies?date="+day+"&type=TOP_GAINERS", nil)
	if answer["uniqueCount"] != 6.0 || answer["type"] != "TOP_GAINERS" {
		t.Errorf("TOP_GAINERS: %v", answer)
	}
	answer = d.ok("GET", "/v1/dashboard/daily-unique-companies?date="+day+"&scope=FULL", nil)
	if answer["uniqueCount"] != 1.0 {
		t.Errorf("FULL: %v", answer)
	}
	body := d.fails(400, "GET", "/v1/dashboard/daily-unique-companies?date="+day+"&type=LOSERS", nil)
	if !dashHasField(body, "type") {
		t.Errorf("bad type: %v", body)
	}

	// Available datetimes: the day has two distinct instants; its
	// timestamps are listed only when asked for.
	answer = d.ok("GET", "/v1/dashboard/available-datetimes", nil)
	found := false
	for _, e := range dashList(answer, "dates") {
		if dashObj(e)["date"] == day {
			found = true
			if dashObj(e)["count"] != 2.0 || len(dashList(dashObj(e), "timestamps")) != 0 {
				t.Errorf("available %s: %v", day, e)
			}
		}
	}
	if !found {
		t.Errorf("%s not among the available dates: %v", day, answer)
	}
	answer = d.ok("GET", "/v1/dashboard/available-datetimes?date="+day, nil)
	for _, e := range dashList(answer, "dates") {
		if dashObj(e)["date"] == day {
			want := []any{"2025-02-06T04:30:00Z", "2025-02-06T04:31:00Z"}
			if got := dashList(dashObj(e), "timestamps"); !reflect.DeepEqual(got, want) {
				t.Errorf("timestamps %v, want %v", got, want)
			}
		} else if len(dashList(dashObj(e), "timestamps")) != 0 {
			t.Errorf("timestamps of a date not asked for: %v", e)
		}
	}
	d.fails(400, "GET", "/v1/dashboard/available-datetimes?date=06-02-2025", nil)
}
