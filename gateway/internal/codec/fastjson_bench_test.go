package codec

import (
	"testing"

	"google.golang.org/protobuf/proto"
)

// BenchmarkDecode compares strict protojson (what decode ran before the
// fast path) with decodeFast on the load benchmark bodies:
//
//	go test -run=^$ -bench=Decode -benchmem -count=5 ./internal/gateway/
func BenchmarkDecodeShortlist(b *testing.B) {
	benchmarkDecode(b, benchShortlist(20, false), collectorRequests["shortlist"])
}

func BenchmarkDecodeShortlistQuoted(b *testing.B) {
	benchmarkDecode(b, benchShortlist(20, true), collectorRequests["shortlist"])
}

func BenchmarkDecodeNifty(b *testing.B) {
	benchmarkDecode(b, benchNifty(), collectorRequests["nifty"])
}

func BenchmarkDecodeQuotes(b *testing.B) {
	benchmarkDecode(b, benchQuotes(300), collectorRequests["quotes"])
}

func benchmarkDecode(b *testing.B, msg proto.Message, newMsg func() proto.Message) {
	body := jsonBody(b, msg)
	m := NewMarshaler()
	b.Run("protojson", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if err := m.strict.Unmarshal(body, newMsg()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if !decodeFast(body, newMsg()) {
				b.Fatal("declined")
			}
		}
	})
}
