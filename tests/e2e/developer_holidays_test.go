package e2e

// Check holiday (API.md 2.4) and the developer's holiday list.

import (
	"testing"
)

func TestCheckHolidayAndHolidays(t *testing.T) {
	s := SharedStack(t)
	_, token := s.NewDeveloper(t, "developer")
	// The calendar of a year no other test uses; the admin routes are
	// another issue's, so the entries go in through SQL.
	s.SQL(t, `INSERT INTO holidays (holiday_date, name, session_open, session_close) VALUES
		('2091-01-26', 'Republic Day', NULL, NULL),
		('2091-11-04', 'Diwali Muhurat', '18:00', '19:00'),
		('2091-08-15', 'Independence Day', NULL, NULL)`)
	cases := []struct {
		date             string
		holiday, trading bool
		name             string
	}{
		{"2091-01-26", true, false, "Republic Day"}, // a Friday
		{"2091-01-25", false, true, ""},             // an ordinary Thursday
		{"2091-01-27", false, false, ""},            // a Saturday
		{"2091-11-04", false, true, "Diwali Muhurat"},
	}
	for _, c := range cases {
		r := s.Do(t, "GET", "/v1/developer/collector/check-holiday?date="+c.date, token, nil)
		expectStatus(t, r, 200)
		if r.JSON["date"] != c.date || r.JSON["isHoliday"] != c.holiday || r.JSON["isTradingDay"] != c.trading ||
			(r.JSON["name"] != c.name && !(c.name == "" && r.JSON["name"] == nil)) {
			t.Errorf("%s: %s, want holiday=%v trading=%v name=%q", c.date, r.Text(), c.holiday, c.trading, c.name)
		}
	}
	r := s.Do(t, "GET", "/v1/developer/holidays?year=2091", token, nil)
	expectStatus(t, r, 200)
	got := asSlice(r.JSON["holidays"])
	want := []string{"2091-01-26", "2091-08-15", "2091-11-04"}
	if len(got) != len(want) {
		t.Fatalf("holidays: %s", r.Text())
	}
	for i, d := range want {
		if field(got[i], "date") != d {
			t.Errorf("holiday %d: %v, want %s", i, got[i], d)
		}
	}
	if field(got[2], "sessionOpen") != "18:00" || field(got[0], "name") != "Republic Day" {
		t.Errorf("holiday fields: %s", r.Text())
	}
	r = s.Do(t, "GET", "/v1/developer/holidays?year=2092", token, nil)
	expectStatus(t, r, 200)
	if len(asSlice(r.JSON["holidays"])) != 0 {
		t.Errorf("2092: %s", r.Text())
	}
}
