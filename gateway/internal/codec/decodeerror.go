package codec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/internal/apierror"
)

// protojsonErrorRE parses protojson's error text, e.g.
//
//	proto: (line 1:30): invalid value for double field price: "abc"
//	proto: syntax error (line 1:20): unexpected token {
//
// protojson deliberately varies the space after "proto:" (U+00A0 or U+0020).
var protojsonErrorRE = regexp.MustCompile(`^proto:[\s\x{00a0}]*(?:syntax error[\s\x{00a0}]*)?\(line (\d+):(\d+)\):[\s\x{00a0}]*(.*)$`)

// bodyError is the decoder's error for a rejected body. grpc-gateway's
// generated code keeps only its text (status.Errorf(InvalidArgument, "%v",
// err)), so the text carries the whole client-facing status, encoded behind
// bodyErrorPrefix; the gateway's error handler decodes it (BodyErrorStatus). It never reaches a client as is.
type bodyError struct {
	st *status.Status
}

const bodyErrorPrefix = "mdc-gateway/body-error:"

func (e *bodyError) Error() string {
	b, err := proto.Marshal(e.st.Proto())
	if err != nil {
		return e.st.Message()
	}
	return bodyErrorPrefix + base64.RawStdEncoding.EncodeToString(b)
}

// BodyErrorStatus decodes the status in the text of a bodyError.
func BodyErrorStatus(msg string) (*status.Status, bool) {
	enc, ok := strings.CutPrefix(msg, bodyErrorPrefix)
	if !ok {
		return nil, false
	}
	b, err := base64.RawStdEncoding.DecodeString(enc)
	if err != nil {
		return nil, false
	}
	var p spb.Status
	if err := proto.Unmarshal(b, &p); err != nil {
		return nil, false
	}
	return status.FromProto(&p), true
}

// decodeErrorStatus turns a protojson error for body data into an
// INVALID_ARGUMENT status that names the field by its JSON path
// ("data.entries[0].price") with a google.rpc.BadRequest field violation,
// when the error has a position inside a field.
func decodeErrorStatus(data []byte, err error) *status.Status {
	text := err.Error()
	m := protojsonErrorRE.FindStringSubmatch(text)
	if m == nil {
		// protojson quotes the offending bytes, which need not be UTF-8.
		detail := apierror.SanitizeUTF8(strings.TrimLeft(strings.TrimPrefix(text, "proto:"), " \u00a0"))
		return status.New(codes.InvalidArgument, "invalid request body: "+detail)
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	detail := apierror.SanitizeUTF8(m[3])
	if path := jsonPathAt(data, offsetOf(data, line, col)); path != "" {
		return apierror.ViolationsStatus([]apierror.Violation{{Field: apierror.SanitizeUTF8(path), Description: detail}})
	}
	return status.New(codes.InvalidArgument,
		fmt.Sprintf("invalid request body: %s (line %d, column %d)", detail, line, col))
}

// offsetOf converts protojson's 1-based line and column (counted in runes)
// to a byte offset into data.
func offsetOf(data []byte, line, col int) int {
	off := 0
	for ; line > 1; line-- {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	for ; col > 1 && off < len(data); col-- {
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off
}

// pathFrame is one open object or array while walking JSON tokens.
type pathFrame struct {
	array   bool
	index   int    // array: index of the current element
	key     string // object: key of the current member
	wantKey bool   // object: the next string token is a key
}

// jsonPathAt returns the JSON path ("data.entries[2].price") of the value
// or object key at byte offset off of data, "" for the top level or when the
// path cannot be told. At a syntax error it returns the path being parsed.
func jsonPathAt(data []byte, off int) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []pathFrame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return framesPath(stack)
		}
		hit := int64(off) >= start && int64(off) < dec.InputOffset()
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if hit {
					return framesPath(stack)
				}
				stack = append(stack, pathFrame{array: d == '[', wantKey: d == '{'})
			case '}', ']':
				stack = stack[:top]
				if hit {
					return framesPath(stack)
				}
				valueDone(stack)
			}
			continue
		}
		if top >= 0 && !stack[top].array && stack[top].wantKey {
			stack[top].key, _ = tok.(string)
			stack[top].wantKey = false
			if hit {
				return framesPath(stack)
			}
			continue
		}
		if hit {
			return framesPath(stack)
		}
		valueDone(stack)
	}
}

// valueDone advances the innermost frame past the value just read.
func valueDone(stack []pathFrame) {
	if len(stack) == 0 {
		return
	}
	f := &stack[len(stack)-1]
	if f.array {
		f.index++
	} else {
		f.wantKey = true
	}
}

func framesPath(stack []pathFrame) string {
	var b strings.Builder
	for _, f := range stack {
		switch {
		case f.array:
			fmt.Fprintf(&b, "[%d]", f.index)
		case !f.wantKey:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		}
	}
	return b.String()
}
