package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/gen/mdcv1"
)

func TestFastDecodeMatchesProtojson(t *testing.T) {
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkFastDecode(t, []byte(tc.body), collectorRequests[tc.kind]); got != tc.fast {
				t.Errorf("fast path took %q: %v, want %v", tc.body, got, tc.fast)
			}
		})
	}
}

// TestFastDecodeTruncated checks every prefix of a body that uses each
// kind of token: none may be taken (no prefix of it is a whole object).
func TestFastDecodeTruncated(t *testing.T) {
	body := jsonBody(t, benchShortlist(2, true))
	body = append(body[:len(body)-1], []byte(`,"timezone":"\u00e9\ud83d\ude00"}`)...)
	// The timezone is now given twice: use the full body to check the
	// duplicate is declined, and prefixes for truncation.
	for n := range body {
		if checkFastDecode(t, body[:n], collectorRequests["shortlist"]) {
			t.Fatalf("took the truncated body %q", body[:n])
		}
	}
}

// TestFastDecodeTakesBenchmarkBodies makes sure the fast path is used for
// the bodies that matter, rather than declining everything safely.
func TestFastDecodeTakesBenchmarkBodies(t *testing.T) {
	bodies := map[string]struct {
		kind string
		msg  proto.Message
	}{
		"shortlist of 20":            {"shortlist", benchShortlist(20, false)},
		"shortlist of 20 with quote": {"shortlist", benchShortlist(20, true)},
		"nifty, full payload":        {"nifty", benchNifty()},
		"300 quotes":                 {"quotes", benchQuotes(300)},
	}
	for name, b := range bodies {
		t.Run(name, func(t *testing.T) {
			for _, protoNames := range []bool{false, true} {
				body, err := protojson.MarshalOptions{UseProtoNames: protoNames, Multiline: protoNames}.Marshal(b.msg)
				if err != nil {
					t.Fatal(err)
				}
				if !checkFastDecode(t, body, collectorRequests[b.kind]) {
					t.Fatalf("fast path declined %.200s...", body)
				}
			}
		})
	}
	for name, b := range nullBodies(t) {
		t.Run(name, func(t *testing.T) {
			if !checkFastDecode(t, b.body, collectorRequests[b.kind]) {
				t.Fatalf("fast path declined %.200s...", b.body)
			}
		})
	}
}

// quoteNulls are the payload fields a collector sends as null for an index
// or a stock without derivatives, and one nested message.
var quoteNulls = []string{
	"bid_quantity", "bid_price", "offer_price", "offer_quantity", "implied_volatility",
	"oi_day_change", "oi_day_change_percentage", "open_interest", "previous_open_interest",
	"market_cap", "last_trade_quantity", "depth",
}

// nullBodies are benchmark bodies with payload fields sent as null.
func nullBodies(t testing.TB) map[string]struct {
	kind string
	body []byte
} {
	type body = struct {
		kind string
		body []byte
	}
	return map[string]body{
		"nifty, payload with nulls":        {"nifty", withNulls(t, jsonBody(t, benchNifty()), quoteNulls...)},
		"shortlist quoted, with nulls":     {"shortlist", withNulls(t, jsonBody(t, benchShortlist(5, true)), append([]string{"name"}, quoteNulls...)...)},
		"300 quotes, null volume, ohlc":    {"quotes", withNulls(t, jsonBody(t, benchQuotes(300)), "volume", "ohlc")},
		"300 quotes, null day_change_perc": {"quotes", withNulls(t, jsonBody(t, benchQuotes(300)), "day_change_perc", "timezone")},
	}
}

// withNulls sets every member named one of keys, at any depth of body, to
// null.
func withNulls(t testing.TB, body []byte, keys ...string) []byte {
	t.Helper()
	v := decodeJSON(t, body)
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if slices.Contains(keys, k) {
					v[k] = nil
					n++
				} else {
					walk(e)
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	if n == 0 {
		t.Fatalf("withNulls: none of %v in %.200s", keys, body)
	}
	return encodeJSON(t, v)
}

// decodeJSON and encodeJSON read and write a body as plain JSON values,
// numbers kept as written.
func decodeJSON(t testing.TB, body []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func encodeJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// jsonPaths lists the path (object keys and array indexes) of every value
// inside v, at any depth.
func jsonPaths(v any, prefix []any, out *[][]any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := append(slices.Clip(prefix), k)
			*out = append(*out, p)
			jsonPaths(e, p, out)
		}
	case []any:
		for i, e := range v {
			p := append(slices.Clip(prefix), i)
			*out = append(*out, p)
			jsonPaths(e, p, out)
		}
	}
}

// setNull sets the value at path in v (a path of jsonPaths) to null.
func setNull(v any, path []any) {
	for i, step := range path {
		last := i == len(path)-1
		switch step := step.(type) {
		case string:
			m := v.(map[string]any)
			if last {
				m[step] = nil
			}
			v = m[step]
		case int:
			l := v.([]any)
			if last {
				l[step] = nil
			}
			v = l[step]
		}
	}
}

// TestFastDecodeNullEveryField takes the body of TestFastDecodeKnowsEveryField
// (every field of every message set, lists of two) and, one at a time, sets
// each value in it to null. A field's value (a member) must be taken, and
// decoded as protojson decodes it (the field unset); a list element must be
// declined, and protojson must refuse it.
func TestFastDecodeNullEveryField(t *testing.T) {
	for kind, newMsg := range collectorRequests {
		msg := newMsg()
		fillAll(msg.ProtoReflect())
		for _, protoNames := range []bool{false, true} {
			body, err := protojson.MarshalOptions{UseProtoNames: protoNames}.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			var paths [][]any
			jsonPaths(decodeJSON(t, body), nil, &paths)
			members := 0
			for _, path := range paths {
				v := decodeJSON(t, body)
				setNull(v, path)
				nulled := encodeJSON(t, v)
				_, member := path[len(path)-1].(string)
				if member {
					members++
				}
				got := checkFastDecode(t, nulled, newMsg)
				if got != member {
					t.Errorf("%s: null at %v: fast path took it: %v, want %v", kind, path, got, member)
				}
				if !member {
					if err := protojson.Unmarshal(nulled, newMsg()); err == nil {
						t.Errorf("%s: protojson accepts a null list element at %v", kind, path)
					}
				}
			}
			if members < 10 {
				t.Fatalf("%s: only %d members nulled", kind, members)
			}
		}
	}
}

// TestFastDecodeNullScope checks what field() assumes of protojson's null
// rule for every message the fast path reads: no field is a
// google.protobuf.Value or NullValue (protojson stores null in those), a
// map, a well-known type (its own JSON rules) or part of a real oneof
// (where protojson's null skips the oneof check; proto3 optional fields
// are synthetic oneofs of one field, which the duplicate check covers).
func TestFastDecodeNullScope(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	var walk func(md protoreflect.MessageDescriptor)
	walk = func(md protoreflect.MessageDescriptor) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		if md.ParentFile().Package() != "mdc.v1" {
			t.Errorf("%s: message outside mdc.v1", md.FullName())
		}
		fields := md.Fields()
		for i := 0; i < fields.Len(); i++ {
			fd := fields.Get(i)
			if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
				t.Errorf("%s: in oneof %s", fd.FullName(), od.FullName())
			}
			if fd.IsMap() {
				t.Errorf("%s: a map", fd.FullName())
			}
			if ed := fd.Enum(); ed != nil && ed.FullName() == "google.protobuf.NullValue" {
				t.Errorf("%s: a NullValue", fd.FullName())
			}
			if fd.IsList() && fd.Message() == nil {
				t.Errorf("%s: a list of scalars", fd.FullName())
			}
			if sub := fd.Message(); sub != nil {
				walk(sub)
			}
		}
	}
	for _, newMsg := range collectorRequests {
		walk(newMsg().ProtoReflect().Descriptor())
	}
	if len(seen) < 10 {
		t.Fatalf("walked only %d messages", len(seen))
	}
}

// TestFastDecodeKnowsEveryField fills every field of each request type (the
// descriptors say which) and checks the fast path takes the body under
// both spellings of the names: a field added to the proto fails here until
// decodeFast reads it.
func TestFastDecodeKnowsEveryField(t *testing.T) {
	for kind, newMsg := range collectorRequests {
		msg := newMsg()
		fillAll(msg.ProtoReflect())
		for _, protoNames := range []bool{false, true} {
			body, err := protojson.MarshalOptions{UseProtoNames: protoNames}.Marshal(msg)
			if err != nil {
				t.Fatal(err)
			}
			if !checkFastDecode(t, body, newMsg) {
				t.Errorf("%s: fast path declined %s", kind, body)
			}
		}
	}
}

// fillAll sets every field of m to a value that is not the default, lists to
// two elements.
func fillAll(m protoreflect.Message) {
	fields := m.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		n := float64(fd.Number())
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := m.Mutable(fd).List()
			for j := 0; j < 2; j++ {
				e := l.NewElement()
				fillAll(e.Message())
				l.Append(e)
			}
		case fd.Message() != nil:
			fillAll(m.Mutable(fd).Message())
		case fd.Kind() == protoreflect.DoubleKind:
			m.Set(fd, protoreflect.ValueOfFloat64(n+0.25))
		case fd.Kind() == protoreflect.StringKind:
			m.Set(fd, protoreflect.ValueOfString(string(fd.Name())+" é"))
		case fd.Kind() == protoreflect.EnumKind:
			values := fd.Enum().Values()
			m.Set(fd, protoreflect.ValueOfEnum(values.Get(values.Len()-1).Number()))
		default:
			panic(fmt.Sprintf("fillAll: no value for %s", fd.FullName()))
		}
	}
}

// TestFastDecodeThenRequiredCheck checks decode still refuses an absent
// required list when the fast path took the body.
func TestFastDecodeThenRequiredCheck(t *testing.T) {
	for _, body := range []string{
		`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS"}}`,
		`{"data":{"timestamp":"2025-01-01T10:00:00","shortlistType":"TOP_GAINERS","entries":null}}`,
	} {
		if !decodeFast([]byte(body), &mdcv1.SaveShortlistRequest{}) {
			t.Fatalf("fast path declined %s; this test needs it taken", body)
		}
		st := NewMarshaler().decode([]byte(body), &mdcv1.SaveShortlistRequest{})
		if st == nil || !strings.Contains(st.Message(), "data.entries: is required") {
			t.Fatalf("decode(%s) = %v, want data.entries is required", body, st)
		}
	}
	body := []byte(`{"data":{"timestamp":"2025-01-01T10:00:00","entries":[]}}`)
	if st := NewMarshaler().decode(body, &mdcv1.SaveShortlistRequest{}); st != nil {
		t.Fatalf("decode = %v, want nil", st)
	}
}

// TestFastDecodeOtherTypes: any other message is left to protojson.
func TestFastDecodeOtherTypes(t *testing.T) {
	if decodeFast([]byte(`{"date":"2025-01-01"}`), &mdcv1.CheckHolidayRequest{}) {
		t.Fatal("fast path took a CheckHolidayRequest")
	}
}
