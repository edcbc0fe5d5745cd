package export

import (
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// BenchmarkQuoteDataRead compares the generated wire reader of a quote's
// cells with proto.Unmarshal of the same bytes into a reused message (what
// the reader would be replaced by), on bench/export/run.sh's template quote:
//
//	go test -run=^$ -bench=QuoteDataRead -benchmem ./internal/export
func BenchmarkQuoteDataRead(b *testing.B) {
	var p mdcv1.QuotePayload
	if err := protojson.Unmarshal([]byte(benchPayload), &p); err != nil {
		b.Fatal(err)
	}
	wire, err := proto.Marshal(&mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &p})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("wire", func(b *testing.B) {
		var q quoteCells
		b.ReportAllocs()
		for b.Loop() {
			if err := q.read(wire); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("proto.Unmarshal", func(b *testing.B) {
		var m mdcv1.QuoteData
		b.ReportAllocs()
		for b.Loop() {
			if err := proto.Unmarshal(wire, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
