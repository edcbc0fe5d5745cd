package export

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

func TestRequestAdjustment(t *testing.T) {
	for _, c := range []struct {
		req  proto.Message
		want string
	}{
		{&mdcv1.ExportQuotesRequest{}, "raw"},
		{&mdcv1.ExportQuotesRequest{Adjustment: "split"}, "split"},
		{&mdcv1.ExportCandlesRequest{Adjustment: "all"}, "all"},
		{&mdcv1.ExportNiftyRequest{}, ""},
	} {
		if got := requestAdjustment(c.req); got != c.want {
			t.Errorf("%T %v: %q, want %q", c.req, c.req, got, c.want)
		}
	}
}

// An adjusted file ends each CSV row with its adjustment, and the import
// refuses it in every format; the same records unadjusted read back.
func TestAdjustedFilesAreMarkedAndRefusedByTheImport(t *testing.T) {
	records := sampleRecords["quotes"]
	marked := withAdjustmentColumn(quotesLayout, "split")
	var out bytes.Buffer
	csvFormat := formatNamed(t, "csv")
	enc, err := csvFormat.open(&out, marked)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range records {
		if err := enc.Write(wireOf(t, rec)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(strings.ReplaceAll(out.String(), "\r\n", "\n")), "\n")
	if !strings.HasSuffix(lines[0], ",adjustment") || len(lines) != len(records)+1 {
		t.Fatalf("file:\n%s", out.String())
	}
	for _, line := range lines[1:] {
		if !strings.HasSuffix(line, ",split") {
			t.Errorf("row without its adjustment: %s", line)
		}
	}
	if _, err := newCSVSource(bytes.NewReader(out.Bytes()), quotesLayout); !errors.Is(err, errAdjustedFile) {
		t.Errorf("CSV import of an adjusted file: %v", err)
	}

	// Parquet: the same column, refused at the schema.
	var pq bytes.Buffer
	penc, err := formatNamed(t, "parquet").open(&pq, marked)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range records {
		if err := penc.Write(wireOf(t, rec)); err != nil {
			t.Fatal(err)
		}
	}
	if err := penc.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := decode(t, formatNamed(t, "parquet"), "quotes", pq.Bytes()); !errors.Is(err, errAdjustedFile) {
		t.Errorf("Parquet import of an adjusted file: %v", err)
	}

	// NDJSON: the record's own field.
	adjusted := proto.Clone(records[0]).(*mdcv1.ExportRecord)
	adjusted.Adjustment = proto.String("all")
	file := encode(t, formatNamed(t, "ndjson"), "quotes", []*mdcv1.ExportRecord{adjusted})
	if !bytes.Contains(file, []byte(`"adjustment":"all"`)) {
		t.Fatalf("NDJSON line: %s", file)
	}
	if _, _, err := decode(t, formatNamed(t, "ndjson"), "quotes", file); !errors.Is(err, errAdjustedFile) {
		t.Errorf("NDJSON import of an adjusted file: %v", err)
	}
}
