package e2e

// Helpers of the import tests (docs/api.md "Import"): files posted as they
// are, and exports read back to compare.

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

// importKinds are the kinds of record an import takes, as its routes and
// the export's routes name them.
var importKinds = []string{"quotes", "nifty", "shortlists"}

// importFormats are the formats of the import's files.
var importFormats = []string{"csv", "parquet", "ndjson"}

// postImport posts file to the import route of kind, in format (as the
// `format` parameter; "" for none), with token.
func postImport(t *testing.T, s *Stack, kind, format, token string, file []byte) *Response {
	t.Helper()
	path := "/v1/admin/import/" + kind
	if format != "" {
		path += "?format=" + format
	}
	return s.Do(t, "POST", path, token, file, map[string]string{"Content-Type": "application/octet-stream"})
}

// exportFile is the export of kind of the days, in format.
func exportFile(t *testing.T, s *Stack, kind, format, days, token string) []byte {
	t.Helper()
	r := getRaw(t, s, fmt.Sprintf("/v1/developer/export/%s?%s&format=%s", kind, days, format), token)
	expectStatus(t, r, 200)
	return r.Body
}

// importCounts checks an import's answer: the records it received and
// the ones it wrote.
func importCounts(t *testing.T, r *Response, records, written int) {
	t.Helper()
	expectStatus(t, r, 200)
	got := func(name string) string { return fmt.Sprint(r.JSON[name]) }
	if got("records") != fmt.Sprint(records) || got("written") != fmt.Sprint(written) ||
		got("unchanged") != fmt.Sprint(records-written) {
		t.Fatalf("import answer %s; want records %d, written %d, unchanged %d", r.Body, records, written, records-written)
	}
}

// expectBadPlace checks a 400 that names place ("line 3", "row 2") and
// says what in reason.
func expectBadPlace(t *testing.T, r *Response, place, reason string) {
	t.Helper()
	expectStatus(t, r, 400)
	msg := fmt.Sprint(r.JSON["message"])
	if !strings.HasPrefix(msg, place+": ") || !strings.Contains(msg, reason) {
		t.Fatalf("message %q; want it to begin with %q and say %q", msg, place, reason)
	}
}

// csvTable is a CSV file as its rows of fields, the header first.
func csvTable(t *testing.T, file []byte) [][]string {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(file))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	return rows
}

// writeCSV makes a CSV file of rows, as the export writes one.
func writeCSV(rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	_ = w.WriteAll(rows)
	return b.Bytes()
}

// copyRows copies rows and their fields.
func copyRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = append([]string(nil), r...)
	}
	return out
}
