package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	mdcv1 "mdc/gateway/gen/mdcv1"
)

// replayPage is a message as a replay sends them: 1000 quotes.
func replayPage() *mdcv1.MarketEvents {
	msg := &mdcv1.MarketEvents{}
	at := time.Date(2031, 3, 4, 3, 45, 0, 0, time.UTC)
	for i := 0; i < 1000; i++ {
		price, volume := 100+float64(i%50)+0.05, float64(i*10)
		msg.Events = append(msg.Events, &mdcv1.MarketEvent{
			Cursor: fmt.Sprintf("r%d.q.SYM%03d", i, i%200),
			Record: &mdcv1.MarketEvent_Quote{Quote: &mdcv1.StockQuote{
				Timestamp: timestamppb.New(at.Add(time.Duration(i/200) * time.Minute)),
				NseSymbol: fmt.Sprintf("SYM%03d", i%200),
				QuoteData: &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS,
					Payload: &mdcv1.QuotePayload{LastPrice: &price, Volume: &volume}},
			}}})
	}
	msg.Cursor = msg.Events[len(msg.Events)-1].Cursor
	return msg
}

// The stream message shortcut writes what JSONPb's path wrote, on one line.
func TestStreamResultChunkIsJSONPbsOnOneLine(t *testing.T) {
	m := NewMarshaler()
	for _, msg := range []*mdcv1.MarketEvents{replayPage(), {Cursor: "c1"}, {}} {
		got, err := m.Marshal(map[string]any{"result": msg})
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.JSONPb.Marshal(map[string]any{"result": msg})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.ContainsRune(got, '\n') {
			t.Fatalf("chunk has a newline: %.200s", got)
		}
		var gotV, wantV any
		if err := json.Unmarshal(got, &gotV); err != nil {
			t.Fatalf("chunk is not JSON: %v: %.200s", err, got)
		}
		if err := json.Unmarshal(want, &wantV); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(gotV, wantV) {
			t.Fatalf("chunk\n got %.300s\nwant %.300s", got, want)
		}
	}
	// Anything else, the error line of a failed stream among them, takes
	// JSONPb's path.
	st := status.New(codes.Unavailable, "resume from cursor 7").Proto()
	got, err := m.Marshal(map[string]any{"error": st})
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(got, &line); err != nil || line.Error.Code != 14 || line.Error.Message != "resume from cursor 7" {
		t.Fatalf("error chunk %s: %v", got, err)
	}
}

// BenchmarkStreamResultChunk: the gateway's work per replay message over
// HTTP (bench/streams measures the whole path).
func BenchmarkStreamResultChunk(b *testing.B) {
	m := NewMarshaler()
	msg := replayPage()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Marshal(map[string]any{"result": msg}); err != nil {
			b.Fatal(err)
		}
	}
}
