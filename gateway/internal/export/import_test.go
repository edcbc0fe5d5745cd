package export

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// decode reads file, of kind in format f, back into records with their
// places, as an import does.
func decode(t *testing.T, f format, kind string, file []byte) ([]*mdcv1.ExportRecord, []int64, error) {
	t.Helper()
	l := layoutOf(t, kind)
	var src recordSource
	var err error
	switch f.name {
	case "csv":
		src, err = newCSVSource(bytes.NewReader(file), l)
	case "ndjson":
		src = newNDJSONSource(bytes.NewReader(file))
	case "parquet":
		path := filepath.Join(t.TempDir(), "f.parquet")
		if err := os.WriteFile(path, file, 0o600); err != nil {
			t.Fatal(err)
		}
		spool, openErr := os.Open(path)
		if openErr != nil {
			t.Fatal(openErr)
		}
		t.Cleanup(func() { spool.Close() })
		var done func()
		src, done, err = newParquetSource(context.Background(), spool, l)
		t.Cleanup(done)
	}
	if err != nil {
		return nil, nil, err
	}
	var records []*mdcv1.ExportRecord
	var places []int64
	for {
		rec, place, err := src.next()
		if errors.Is(err, io.EOF) {
			return records, places, nil
		}
		if err != nil {
			return records, places, err
		}
		records = append(records, rec)
		places = append(places, place)
	}
}

// An import reads back exactly the records an export wrote, in every
// format: the file is the same records again.
func TestImportReadsBackWhatTheExportWrote(t *testing.T) {
	for _, kind := range []string{"quotes", "nifty", "shortlists"} {
		for _, f := range formats {
			t.Run(kind+" "+f.name, func(t *testing.T) {
				file := encode(t, f, kind, sampleRecords[kind])
				got, places, err := decode(t, f, kind, file)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(sampleRecords[kind]) {
					t.Fatalf("%d records, want %d", len(got), len(sampleRecords[kind]))
				}
				for i, want := range sampleRecords[kind] {
					if !proto.Equal(got[i], want) {
						t.Errorf("record %d:\n%v\nwant\n%v", i, got[i], want)
					}
				}
				// Where each record began: CSV lines count the header, a
				// snapshot of two entries takes two lines.
				wantPlaces := map[string]map[string][]int64{
					"csv":     {"quotes": {2, 3}, "nifty": {2}, "shortlists": {2, 4}},
					"ndjson":  {"quotes": {1, 2}, "nifty": {1}, "shortlists": {1, 2}},
					"parquet": {"quotes": {1, 2}, "nifty": {1}, "shortlists": {1, 3}},
				}[f.name][kind]
				if !equalPlaces(places, wantPlaces) {
					t.Errorf("places %v, want %v", places, wantPlaces)
				}
			})
		}
	}
}

func equalPlaces(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestImportNamesTheBadLineOrRow(t *testing.T) {
	csvFile := string(encode(t, formatNamed(t, "csv"), "quotes", sampleRecords["quotes"]))
	cases := []struct {
		name, kind, file, want string
	}{
		{"a bad number", "quotes", strings.Replace(csvFile, ",1.5,", ",x,", 1), `line 2: column last_price: is not a number: "x"`},
		{"an unknown status", "quotes", strings.Replace(csvFile, "FAILURE", "MAYBE", 1), `line 3: column status: must be SUCCESS or FAILURE, not "MAYBE"`},
		{"a depth that is not JSON", "quotes", strings.Replace(csvFile, `"{""buy""`, `"{""bid""`, 1), "line 2: column depth: is not a depth as JSON"},
		{"quotes as shortlists", "shortlists", csvFile, `line 1: unexpected column "status"`},
		{"a rank out of order", "shortlists", strings.Replace(string(encode(t, formatNamed(t, "csv"), "shortlists", sampleRecords["shortlists"])), "TOP_5,2,2,", "TOP_5,2,3,", 1),
			"line 3: column rank: must be 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := decode(t, formatNamed(t, "csv"), c.kind, []byte(c.file))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// The fast reader of a depth cell answers as protojson does, for the
// compact form the export writes and for every other form (which it
// leaves to protojson).
func TestParseDepthAnswersAsProtojson(t *testing.T) {
	for _, text := range []string{
		`{}`,
		`{"buy":[{"price":99.5,"quantity":10},{"price":99.4}]}`,
		`{"sell":[{"quantity":1e3},{}]}`,
		`{"buy":[{"price":-0.5,"quantity":0}],"sell":[{"price":100.5,"quantity":10}]}`,
		`{ "buy": [ {"quantity": 1, "price": 2} ] }`,
		`{"buy":[{"price":"NaN"}]}`,
		`{"buy":[{"price":0x10}]}`,
		`{"buy":[],"sell":[]}`,
		`{"bid":[]}`,
		`{"buy":[{"price":1}]} `,
	} {
		want := &mdcv1.Depth{}
		wantErr := protoJSONIn.Unmarshal([]byte(text), want)
		got, err := parseDepth(text)
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: error %v, protojson's %v", text, err, wantErr)
			continue
		}
		if err == nil && !proto.Equal(got, want) {
			t.Errorf("%s: %v, protojson reads %v", text, got, want)
		}
	}
}
