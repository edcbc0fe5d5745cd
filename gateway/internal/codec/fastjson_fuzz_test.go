package codec

import (
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The fuzz targets check the property of checkFastDecode on any input: the
// fast path declines, or it decodes exactly as strict protojson, which must
// accept the body. The seeds (run by go test) are the table of
// fastjson_test.go (null cases included) and small versions of the
// benchmark bodies, under both spellings of the field names, as they are
// and with payload fields set to null.

func FuzzFastDecodeShortlist(f *testing.F) { fuzzFastDecode(f, "shortlist") }

func FuzzFastDecodeNifty(f *testing.F) { fuzzFastDecode(f, "nifty") }

func FuzzFastDecodeQuotes(f *testing.F) { fuzzFastDecode(f, "quotes") }

func fuzzFastDecode(f *testing.F, kind string) {
	for _, tc := range fastCases {
		f.Add([]byte(tc.body))
	}
	seeds := map[string][]proto.Message{
		"shortlist": {benchShortlist(2, false), benchShortlist(2, true)},
		"nifty":     {benchNifty()},
		"quotes":    {benchQuotes(3)},
	}
	for _, m := range seeds[kind] {
		for _, protoNames := range []bool{false, true} {
			body, err := protojson.MarshalOptions{UseProtoNames: protoNames, Multiline: protoNames}.Marshal(m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(body)
			// The same with payload fields (and more) sent as null.
			f.Add(withNulls(f, body, append([]string{"volume", "ohlc", "name", "timezone"}, quoteNulls...)...))
		}
	}
	newMsg := collectorRequests[kind]
	f.Fuzz(func(t *testing.T, body []byte) {
		checkFastDecode(t, body, newMsg)
	})
}
