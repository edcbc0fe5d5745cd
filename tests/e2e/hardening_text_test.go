package e2e

// Issue 31 item 5: names and free text refuse every Unicode control (Cc) and
// format (Cf) character, checked against Go's own Unicode tables, which are
// independent of the server's (domain/text.cc).

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
)

// controlOrFormatRunes is every code point of categories Cc and Cf.
func controlOrFormatRunes() []rune {
	var runes []rune
	for _, table := range []*unicode.RangeTable{unicode.Cc, unicode.Cf} {
		for _, r := range table.R16 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				runes = append(runes, c)
			}
		}
		for _, r := range table.R32 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				runes = append(runes, c)
			}
		}
	}
	return runes
}

// inBatches calls f with runes, at most n at a time (an error answer keeps
// at most 100 field violations).
func inBatches(runes []rune, n int, f func([]rune)) {
	for len(runes) > 0 {
		k := min(n, len(runes))
		f(runes[:k])
		runes = runes[k:]
	}
}

func TestNamesRefuseEveryControlAndFormatCharacter(t *testing.T) {
	s := SharedStack(t)
	_, dev := s.NewDeveloper(t, "developer")
	runes := controlOrFormatRunes()
	if len(runes) < 200 {
		t.Fatalf("only %d Cc/Cf code points: the table is not Unicode's", len(runes))
	}

	t.Run("shortlist entry names", func(t *testing.T) {
		inBatches(runes, 40, func(batch []rune) {
			entries := make([]any, len(batch))
			for i, c := range batch {
				entries[i] = map[string]any{"nseSymbol": fmt.Sprintf("TXT%d", i), "name": "Tata" + string(c) + "Motors", "price": 10}
			}
			r := s.Do(t, "POST", "/v1/developer/collector/shortlists", dev, map[string]any{"data": map[string]any{
				"timestamp": "2025-03-10T10:00:00", "shortlistType": "TOP_GAINERS", "scope": "FULL", "entries": entries}})
			if r.Status != 400 {
				t.Fatalf("entries with %U..%U: %v, want 400", batch[0], batch[len(batch)-1], r)
			}
			for i, c := range batch {
				if !hasFieldViolation(r.JSON, fmt.Sprintf("data.entries[%d].name", i)) {
					t.Errorf("%U in a shortlist entry name was not refused: %v", c, r)
				}
			}
			if !strings.Contains(fmt.Sprint(r.JSON["message"]), fmt.Sprintf("found U+%04X", batch[0])) {
				t.Errorf("message does not name %U: %v", batch[0], r.JSON["message"])
			}
		})
	})

	t.Run("holiday names", func(t *testing.T) {
		day := time.Date(2190, 1, 1, 0, 0, 0, 0, time.UTC)
		inBatches(runes, 40, func(batch []rune) {
			holidays := make([]any, len(batch))
			for i, c := range batch {
				holidays[i] = map[string]any{"date": day.AddDate(0, 0, i).Format(time.DateOnly), "name": "Holi" + string(c)}
			}
			r := s.Do(t, "POST", "/v1/admin/holidays", s.AdminToken(), map[string]any{"holidays": holidays})
			if r.Status != 400 {
				t.Fatalf("holidays with %U..%U: %v, want 400", batch[0], batch[len(batch)-1], r)
			}
			for i, c := range batch {
				if !hasFieldViolation(r.JSON, fmt.Sprintf("holidays[%d].name", i)) {
					t.Errorf("%U in a holiday name was not refused: %v", c, r)
				}
			}
		})
	})

	t.Run("run names", func(t *testing.T) {
		for _, c := range []rune{'\t', '\n', 0x85, 0xad, 0x200b, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0xfeff, 0xe0001} {
			r := s.Do(t, "POST", "/v1/dashboard/runs", dev, map[string]any{
				"start_datetime": "2025-03-10T09:15:00", "end_datetime": "2025-03-10T15:30:00", "name": "run" + string(c) + "name"})
			if r.Status != 400 || !hasFieldViolation(r.JSON, "name") {
				t.Errorf("run name with %U: %v, want 400 naming name", c, r)
			}
		}
		created := s.Do(t, "POST", "/v1/dashboard/runs", dev, map[string]any{
			"start_datetime": "2025-03-10T09:15:00", "end_datetime": "2025-03-10T15:30:00", "name": "plain"})
		if created.Status != 200 {
			t.Fatalf("create run: %v", created)
		}
		r := s.Do(t, "PATCH", fmt.Sprintf("/v1/dashboard/runs/%v", created.JSON["id"]), dev, map[string]any{"name": "evil\u202egpj.exe"})
		if r.Status != 400 || !hasFieldViolation(r.JSON, "name") {
			t.Errorf("renaming a run with U+202E: %v, want 400 naming name", r)
		}
	})

	// Names of other scripts and symbols stay welcome.
	t.Run("other text is accepted", func(t *testing.T) {
		for _, name := range []string{"Bajaj Finserv ₹", "टाटा मोटर्स", "Reliance — Q3 ✓", "emoji 📈"} {
			r := s.Do(t, "POST", "/v1/dashboard/runs", dev, map[string]any{
				"start_datetime": "2025-03-10T09:15:00", "end_datetime": "2025-03-10T15:30:00", "name": name})
			if r.Status != 200 || r.JSON["name"] != name {
				t.Errorf("run name %q: %v", name, r)
			}
		}
	})
}
