package export

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// benchmarkImport reads a page of 1,000 full quotes, written by the export
// in format name, back into records and marshals them as the import sends
// them: one iteration is one page, ns/op / 1000 the time per row.
func benchmarkImport(b *testing.B, name string) {
	f := formatNamed(&testing.T{}, name)
	var file bytes.Buffer
	enc, err := f.open(&file, quotesLayout)
	if err != nil {
		b.Fatal(err)
	}
	if err := eachRecord(benchChunk(b), enc.Write); err != nil {
		b.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var src recordSource
		switch name {
		case "csv":
			src, err = newCSVSource(bytes.NewReader(file.Bytes()), quotesLayout)
		case "ndjson":
			src = newNDJSONSource(bytes.NewReader(file.Bytes()))
		}
		if err != nil {
			b.Fatal(err)
		}
		batch := make([]*mdcv1.ExportRecord, 0, 1000)
		for {
			rec, _, err := src.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			batch = append(batch, rec)
		}
		if _, err := proto.Marshal(&mdcv1.ImportQuotesRequest{Records: batch}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkImportQuotesPageCSV(b *testing.B)    { benchmarkImport(b, "csv") }
func BenchmarkImportQuotesPageNDJSON(b *testing.B) { benchmarkImport(b, "ndjson") }
