package codec

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/internal/routes"
	"mdc/gateway/internal/rpcpolicy"
)

// MaskRoutes maps "METHOD pattern" (pattern as runtime.Pattern.String()
// prints it) to the body message type of routes whose update_mask
// grpc-gateway fills from the JSON keys of the body. grpc-gateway refuses an
// unknown key there ("could not find field"), while docs/api.md says
// unknown fields are ignored; DropUnknownMaskKeys closes that gap.
type MaskRoutes map[string]protoreflect.MessageDescriptor

// pathVarRE matches a simple path variable "{run_id}" of an http rule.
var pathVarRE = regexp.MustCompile(`\{([^=}]+)\}`)

// MdcMaskRoutes finds those routes in the HTTP rules of package mdc.v1.
func MdcMaskRoutes() MaskRoutes {
	masked := MaskRoutes{}
	rpcpolicy.Methods(masked.add)
	return masked
}

func (masked MaskRoutes) add(m protoreflect.MethodDescriptor) {
	rule, _ := proto.GetExtension(m.Options(), annotations.E_Http).(*annotations.HttpRule)
	if rule == nil {
		return
	}
	in := m.Input()
	if mask := in.Fields().ByName("update_mask"); mask == nil || mask.Message() == nil ||
		mask.Message().FullName() != "google.protobuf.FieldMask" {
		return
	}
	for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
		body := in.Fields().ByName(protoreflect.Name(r.GetBody()))
		if body == nil || body.Message() == nil || body.IsList() || body.IsMap() {
			continue // body "*" or "": grpc-gateway fills no mask from it
		}
		method, path := routes.HTTPRule(r)
		if method != "" {
			masked[method+" "+pathVarRE.ReplaceAllString(path, "{$1=*}")] = body.Message()
		}
	}
}

// DropUnknownMaskKeys is a grpc-gateway middleware that removes the JSON
// keys naming no field from the bodies of maskRoutes, so they are ignored
// like everywhere else instead of failing the update mask.
func DropUnknownMaskKeys(masked MaskRoutes) runtime.Middleware {
	return func(next runtime.HandlerFunc) runtime.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request, params map[string]string) {
			if p, ok := runtime.HTTPPattern(r.Context()); ok {
				if md := masked[r.Method+" "+p.String()]; md != nil {
					filterBody(r, md)
				}
			}
			next(w, r, params)
		}
	}
}

// filterBody replaces r's body by the body without unknown keys. A body
// that is not a JSON object is left for the decoder to judge.
func filterBody(r *http.Request, md protoreflect.MessageDescriptor) {
	orig := r.Body
	data, err := io.ReadAll(orig)
	if err != nil {
		r.Body = bodyOf(io.MultiReader(bytes.NewReader(data), errReader{err}), orig)
		return // the decoder reads the same error
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) == nil && obj != nil && dropUnknownKeys(obj, md) {
		if filtered, err := json.Marshal(obj); err == nil {
			data = filtered
		}
	}
	r.Body = bodyOf(bytes.NewReader(data), orig)
}

// dropUnknownKeys deletes the keys of obj that name no field of md, also in
// nested message objects, and reports whether it deleted any.
func dropUnknownKeys(obj map[string]json.RawMessage, md protoreflect.MessageDescriptor) bool {
	changed := false
	for k, v := range obj {
		fields := md.Fields()
		fd := fields.ByName(protoreflect.Name(k))
		if fd == nil {
			fd = fields.ByJSONName(k)
		}
		if fd == nil {
			delete(obj, k)
			changed = true
			continue
		}
		sub := fd.Message()
		if sub == nil || fd.IsList() || fd.IsMap() || strings.HasPrefix(string(sub.FullName()), "google.protobuf.") {
			continue
		}
		var child map[string]json.RawMessage
		if json.Unmarshal(v, &child) == nil && child != nil && dropUnknownKeys(child, sub) {
			if b, err := json.Marshal(child); err == nil {
				obj[k] = b
				changed = true
			}
		}
	}
	return changed
}

// bodyOf is a request body that reads r and closes c.
func bodyOf(r io.Reader, c io.Closer) io.ReadCloser {
	return struct {
		io.Reader
		io.Closer
	}{r, c}
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
