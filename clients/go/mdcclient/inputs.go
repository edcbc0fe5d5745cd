package mdcclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Unmarshal fills m from the JSON b (protojson, as the gateway reads it) and
// refuses, before anything is sent, any key that is no field of m's message
// or of a message inside it: the server ignores unknown JSON fields, so a
// misspelled key in JSON a collector parsed (a broker's quote) would be a
// field stored empty. field is where m goes in the request, named as the
// server names fields ("data.quotes[0].quoteData"); a refusal is an *Error
// with codes.InvalidArgument and one FieldViolation whose Field is the
// offending key's path under it, as the server would name it
// ("data.quotes[0].quoteData.payload.lastPrice"), and whose Description names
// the known key it probably meant ("unknown key 'lastPrice' of QuotePayload;
// did you mean 'last_price'?"). A value of the wrong type is refused the same
// way, with protojson's description, at field.
//
//	q := &mdcv1.QuoteData{}
//	if err := mdcclient.Unmarshal(brokerJSON, q, "data.quotes[0].quoteData"); err != nil { ... }
func Unmarshal(b []byte, m proto.Message, field string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return InvalidArgument(field, "not JSON: "+err.Error())
	}
	if err := checkKeys(v, m.ProtoReflect().Descriptor(), field); err != nil {
		return err
	}
	if err := protojson.Unmarshal(b, m); err != nil {
		return InvalidArgument(field, strings.TrimPrefix(err.Error(), "proto: "))
	}
	return nil
}

// InvalidArgument is the *Error of a request the client refuses before
// sending: codes.InvalidArgument with one FieldViolation, as the server's
// own refusals read ("field: description").
// Its GRPCStatus carries the google.rpc.BadRequest detail, so that ErrorOf
// and any gRPC tooling read it as they read the server's.
func InvalidArgument(field, description string) *Error {
	st := status.New(codes.InvalidArgument, field+": "+description)
	if detailed, err := st.WithDetails(&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
		{Field: field, Description: description}}}); err == nil {
		st = detailed
	}
	return &Error{Code: codes.InvalidArgument, Message: st.Message(),
		FieldViolations: []FieldViolation{{Field: field, Description: description}}, status: st}
}

func checkKeys(v any, d protoreflect.MessageDescriptor, path string) error {
	obj, ok := v.(map[string]any)
	if !ok || strings.HasPrefix(string(d.FullName()), "google.protobuf.") {
		return nil // protojson judges values; well-known types have their own JSON
	}
	for key, item := range obj {
		where := key
		if path != "" {
			where = path + "." + key
		}
		fd := d.Fields().ByJSONName(key)
		if fd == nil {
			fd = d.Fields().ByName(protoreflect.Name(key))
		}
		if fd == nil {
			return InvalidArgument(where, unknownKey(d, key))
		}
		if fd.Message() == nil || fd.IsMap() || item == nil {
			continue
		}
		if list, ok := item.([]any); ok && fd.IsList() {
			for i, element := range list {
				if err := checkKeys(element, fd.Message(), fmt.Sprintf("%s[%d]", where, i)); err != nil {
					return err
				}
			}
			continue
		}
		if err := checkKeys(item, fd.Message(), where); err != nil {
			return err
		}
	}
	return nil
}

// unknownKey says that key is no field of d, and which one it probably
// meant: the same letters in another case or spelling (lastPrice for
// last_price), an abbreviation (qty for quantity), else the closest by edit
// distance, if close enough.
func unknownKey(d protoreflect.MessageDescriptor, key string) string {
	var known []string
	for i := 0; i < d.Fields().Len(); i++ {
		known = append(known, d.Fields().Get(i).JSONName())
	}
	guess := nearestKey(key, known)
	if guess == "" {
		return fmt.Sprintf("unknown key '%s' of %s; the keys are %s", key, d.Name(), strings.Join(known, ", "))
	}
	return fmt.Sprintf("unknown key '%s' of %s; did you mean '%s'?", key, d.Name(), guess)
}

func nearestKey(key string, known []string) string {
	fold := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s)) }
	for _, k := range known {
		if fold(k) == fold(key) {
			return k
		}
	}
	// An abbreviation: the key's letters in order, from the first (qty, quantity).
	for _, k := range known {
		if f, g := fold(key), fold(k); len(f) > 1 && f[0] == g[0] && isSubsequence(f, g) {
			return k
		}
	}
	best, bestDistance := "", max(2, len(key)/3)+1
	for _, k := range known {
		if d := editDistance(fold(key), fold(k)); d < bestDistance {
			best, bestDistance = k, d
		}
	}
	return best
}

func isSubsequence(short, long string) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if short[i] == long[j] {
			i++
		}
	}
	return i == len(short)
}

func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		next := make([]int, len(b)+1)
		next[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next[j] = min(row[j]+1, next[j-1]+1, row[j-1]+cost)
		}
		row = next
	}
	return row[len(b)]
}
