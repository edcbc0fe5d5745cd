package e2e

// Helpers of the security-master and corporate-action tests: ISINs with
// their check digit, and files in NSE's layouts sent as text/csv.

import (
	"strconv"
	"strings"
	"testing"
)

// uniqueIsin is a fresh Indian ISIN (INE + 8 characters + the ISO 6166
// check digit), so tests on the shared stack never meet each other's
// instruments.
func uniqueIsin(t *testing.T) string {
	t.Helper()
	body := "INE" + strings.ToUpper(mustRandomHex(t, 4))
	return body + isinCheckDigit(body)
}

// isinCheckDigit is the Luhn check digit of the first 11 characters of an
// ISIN, letters counted as two digits (A=10 ... Z=35).
func isinCheckDigit(body string) string {
	var digits strings.Builder
	for _, c := range body {
		if c >= 'A' && c <= 'Z' {
			digits.WriteString(strconv.Itoa(int(c-'A') + 10))
		} else {
			digits.WriteRune(c)
		}
	}
	s := digits.String()
	sum := 0
	double := true // the check digit will be the rightmost, not doubled
	for i := len(s) - 1; i >= 0; i-- {
		d := int(s[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return strconv.Itoa((10 - sum%10) % 10)
}

// postCSV sends a file as the body of an admin import route.
func postCSV(t *testing.T, s *Stack, path, csv string) *Response {
	t.Helper()
	return s.Do(t, "POST", path, s.AdminToken(), csv, map[string]string{"Content-Type": "text/csv"})
}

// expectImport checks an import's counts and the lines it rejected.
func expectImport(t *testing.T, r *Response, kind string, imported, unchanged int, rejectedLines ...int) {
	t.Helper()
	expectStatus(t, r, 200)
	if r.JSON["kind"] != kind || num(t, r.JSON["imported"]) != float64(imported) ||
		num(t, r.JSON["unchanged"]) != float64(unchanged) {
		t.Fatalf("want kind %s, %d imported, %d unchanged: %s", kind, imported, unchanged, r.Text())
	}
	rejected := asSlice(r.JSON["rejected"])
	if len(rejected) != len(rejectedLines) {
		t.Fatalf("want rejected lines %v: %s", rejectedLines, r.Text())
	}
	for i, line := range rejectedLines {
		if num(t, field(rejected[i], "line")) != float64(line) || field(rejected[i], "reason") == "" {
			t.Fatalf("want rejected lines %v: %s", rejectedLines, r.Text())
		}
	}
}
