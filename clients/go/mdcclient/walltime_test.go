package mdcclient_test

// The wall-clock helpers (walltime.go): WallClock and ParseWallClock are
// inverse to the second in any location, trading dates are Kolkata's.

import (
	"testing"
	"time"

	"github.com/mdc-project/mdc/clients/go/mdcclient"
)

func mustLocation(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestWallClock(t *testing.T) {
	newYork := mustLocation(t, "America/New_York")
	// 01:30 on 2025-11-02 happens twice in New York; the second is EST.
	secondHalfPast1 := time.Date(2025, 11, 2, 5, 30, 0, 0, time.UTC).Add(time.Hour).In(newYork)
	for _, c := range []struct {
		at                 time.Time
		datetime, timezone string
	}{
		{time.Date(2025, 12, 31, 9, 15, 0, 0, mdcclient.IST), "2025-12-31T09:15:00", "+05:30"},
		{time.Date(2025, 12, 31, 3, 45, 0, 0, time.UTC), "2025-12-31T03:45:00", "UTC"},
		{time.Date(2025, 7, 1, 9, 0, 0, 999_999_999, newYork), "2025-07-01T09:00:00", "-04:00"},
		{secondHalfPast1, "2025-11-02T01:30:00", "-05:00"},
		{time.Date(2025, 1, 2, 10, 0, 0, 0, time.FixedZone("", -(9*3600+30*60))), "2025-01-02T10:00:00", "-09:30"},
		// Madras local mean time: not whole minutes, so UTC.
		{time.Date(1900, 1, 1, 12, 0, 0, 0, mustLocation(t, "Asia/Kolkata")), "1900-01-01T06:38:50", "UTC"},
	} {
		datetime, timezone := mdcclient.WallClock(c.at)
		if datetime != c.datetime || timezone != c.timezone {
			t.Errorf("WallClock(%v) = %q, %q; want %q, %q", c.at, datetime, timezone, c.datetime, c.timezone)
		}
		back, err := mdcclient.ParseWallClock(datetime, timezone)
		if err != nil || !back.Equal(c.at.Truncate(time.Second)) {
			t.Errorf("ParseWallClock(WallClock(%v)) = %v, %v; want the instant to the second", c.at, back, err)
		}
	}
}

func TestParseWallClock(t *testing.T) {
	want := time.Date(2025, 12, 31, 3, 45, 0, 0, time.UTC)
	for _, timezone := range []string{"", "Asia/Kolkata", "+05:30"} {
		got, err := mdcclient.ParseWallClock("2025-12-31T09:15:00", timezone)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseWallClock(09:15, %q) = %v, %v; want %v", timezone, got, err, want)
		}
	}
	for _, timezone := range []string{"UTC", "utc", "+00:00", "-00:00"} {
		got, err := mdcclient.ParseWallClock("2025-12-31T03:45:00", timezone)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseWallClock(03:45, %q) = %v, %v; want %v", timezone, got, err, want)
		}
	}
	if got, err := mdcclient.ParseWallClock("2025-12-31T09:15:00", ""); err != nil || got.Location() != mdcclient.IST {
		t.Errorf("without a timezone the result is in %v (%v), want IST", got.Location(), err)
	}
	for _, bad := range []struct{ datetime, timezone string }{
		{"2025-02-30T10:00:00", ""}, // no such day
		{"2025-12-31T24:00:00", ""},
		{"2025-13-45T10:00:00", ""},
		{"2025-12-31 09:15:00", ""},
		{"2025-12-31T09:15:00Z", ""},
		{"2025-12-31T09:15:00.5", ""},
		{"2025-12-31T09:15:00", "Mars/Olympus"},
		{"2025-12-31T09:15:00", "+14:01"},
		{"2025-12-31T09:15:00", "+05:60"},
		{"2025-12-31T09:15:00", "+5:30"},
	} {
		if got, err := mdcclient.ParseWallClock(bad.datetime, bad.timezone); err == nil {
			t.Errorf("ParseWallClock(%q, %q) = %v, want an error", bad.datetime, bad.timezone, got)
		}
	}
}

func TestTradingDates(t *testing.T) {
	// 20:00 UTC on the 30th is 01:30 on the 31st in Kolkata.
	if got := mdcclient.TradingDate(time.Date(2025, 12, 30, 20, 0, 0, 0, time.UTC)); got != "2025-12-31" {
		t.Errorf("TradingDate(2025-12-30T20:00Z) = %s, want 2025-12-31", got)
	}
	start, err := mdcclient.ParseTradingDate("2025-12-31")
	if want := time.Date(2025, 12, 30, 18, 30, 0, 0, time.UTC); err != nil || !start.Equal(want) {
		t.Errorf("ParseTradingDate(2025-12-31) = %v, %v; want %v", start, err, want)
	}
	if _, err := mdcclient.ParseTradingDate("2025-02-30"); err == nil {
		t.Error("ParseTradingDate(2025-02-30) succeeded, want an error")
	}
	if mdcclient.IST.String() != "Asia/Kolkata" {
		t.Errorf("IST is %s, want Asia/Kolkata", mdcclient.IST)
	}
}
