package e2e

// The OpenAPI document as the bad-input sweep (sweep_test.go) reads it:
// every operation, its parameters, and the leaves (strings and numbers) of
// its request body, each with the JSON path the server names it by.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// sweepOp is one operation of the document.
type sweepOp struct {
	method, template string
	admin            bool // tagged AdminService: called with the admin token
	public           bool // security: [] (no token)
	params           []sweepParam
	body             map[string]any // the request body's schema; nil: no body
	example          any            // a body from the document's examples; nil: none
	// csvBody: the body is a file sent as text/csv (the admin imports); its
	// parameters are swept with a valid file, and the file itself with
	// bytes that are not text.
	csvBody bool
}

func (o sweepOp) String() string { return o.method + " " + o.template }

// sweepParam is a path, query or header parameter.
type sweepParam struct {
	name, in string
	required bool
	schema   map[string]any
}

// valueKind is what a string or number means, which decides the bad values
// sent for it.
type valueKind int

const (
	kindText      valueKind = iota // any other string (names, symbols, enums, ids)
	kindDate                       // YYYY-MM-DD
	kindWallClock                  // YYYY-MM-DDTHH:MM:SS
	kindNumber                     // a JSON number
)

// bodyLeaf is a string or number somewhere in a request body.
type bodyLeaf struct {
	path   []any // object keys (string) and list indexes (int)
	kind   valueKind
	schema map[string]any
}

// field is the leaf's name as error messages give it: data.entries[0].price.
func (l bodyLeaf) field() string {
	var b strings.Builder
	for _, step := range l.path {
		switch s := step.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		}
	}
	return b.String()
}

// openAPIDoc is the document, decoded as plain JSON values.
type openAPIDoc struct {
	paths      map[string]any
	schemas    map[string]any
	parameters map[string]any
}

func fetchOpenAPI(t *testing.T, s *Stack) openAPIDoc {
	t.Helper()
	r := s.Do(t, "GET", "/openapi.json", "", nil)
	expectStatus(t, r, 200)
	var raw map[string]any
	if err := json.Unmarshal(r.Body, &raw); err != nil {
		t.Fatalf("/openapi.json: %v", err)
	}
	components := asObject(raw["components"])
	return openAPIDoc{
		paths:      asObject(raw["paths"]),
		schemas:    asObject(components["schemas"]),
		parameters: asObject(components["parameters"]),
	}
}

// operations lists every operation of the document, sorted.
func (d openAPIDoc) operations(t *testing.T) []sweepOp {
	t.Helper()
	var ops []sweepOp
	for template, item := range d.paths {
		for method, v := range asObject(item) {
			op := asObject(v)
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options":
			default:
				continue // path-level parameters, summary, ...
			}
			o := sweepOp{method: strings.ToUpper(method), template: template}
			for _, tag := range asSlice(op["tags"]) {
				o.admin = o.admin || tag == "AdminService" || tag == "ImportService"
			}
			if security, ok := op["security"]; ok {
				o.public = true
				for _, requirement := range asSlice(security) {
					o.public = o.public && len(asObject(requirement)) == 0
				}
			}
			for _, p := range asSlice(op["parameters"]) {
				p := d.parameter(asObject(p))
				o.params = append(o.params, sweepParam{
					name:     fmt.Sprint(p["name"]),
					in:       fmt.Sprint(p["in"]),
					required: p["required"] == true,
					schema:   asObject(p["schema"]),
				})
			}
			if rb := asObject(op["requestBody"]); rb != nil {
				content := asObject(rb["content"])
				media := asObject(content["application/json"])
				if media == nil && content["text/csv"] != nil {
					if hasTag(op, "ImportService") {
						// An exported file (the data imports): no JSON values
						// to sweep; its parameters are swept, and
						// tests/e2e/import_test.go sends the bad files.
						ops = append(ops, o)
						continue
					}
					// One of NSE's files (the instrument imports).
					o.csvBody = true
					ops = append(ops, o)
					continue
				}
				if media == nil {
					t.Fatalf("%s: request body without application/json", o)
				}
				o.body = asObject(media["schema"])
				for _, ex := range asObject(media["examples"]) {
					o.example = asObject(ex)["value"]
					break
				}
			}
			ops = append(ops, o)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].String() < ops[j].String() })
	return ops
}

// hasTag reports whether operation op has tag.
func hasTag(op map[string]any, tag string) bool {
	for _, t := range asSlice(op["tags"]) {
		if t == tag {
			return true
		}
	}
	return false
}

// parameter resolves a $ref to components/parameters.
func (d openAPIDoc) parameter(p map[string]any) map[string]any {
	if ref, ok := p["$ref"].(string); ok {
		return asObject(d.parameters[strings.TrimPrefix(ref, "#/components/parameters/")])
	}
	return p
}

// leaves lists the strings and numbers of a body schema, one per distinct
// path and kind; lists are entered at index 0. A schema seen on the path
// already (a recursive type) is not entered again.
func (d openAPIDoc) leaves(schema map[string]any) []bodyLeaf {
	var out []bodyLeaf
	seen := map[string]bool{}
	var walk func(s map[string]any, path []any, refs map[string]bool)
	walk = func(s map[string]any, path []any, refs map[string]bool) {
		if s == nil {
			return
		}
		if ref, ok := s["$ref"].(string); ok {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			if refs[name] {
				return
			}
			inner := map[string]bool{name: true}
			for k := range refs {
				inner[k] = true
			}
			walk(asObject(d.schemas[name]), path, inner)
			return
		}
		for _, key := range []string{"allOf", "anyOf", "oneOf"} {
			for _, alt := range asSlice(s[key]) {
				walk(asObject(alt), path, refs)
			}
		}
		add := func(kind valueKind) {
			l := bodyLeaf{path: append([]any(nil), path...), kind: kind, schema: s}
			key := fmt.Sprint(l.field(), "/", kind)
			if !seen[key] {
				seen[key] = true
				out = append(out, l)
			}
		}
		switch schemaType(s) {
		case "object":
			props := asObject(s["properties"])
			names := make([]string, 0, len(props))
			for name := range props {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				walk(asObject(props[name]), append(path, name), refs)
			}
		case "array":
			walk(asObject(s["items"]), append(path, 0), refs)
		case "string":
			add(stringKind(s))
		case "number", "integer":
			add(kindNumber)
		}
	}
	walk(schema, nil, map[string]bool{})
	return out
}

func schemaType(s map[string]any) string {
	if t, ok := s["type"].(string); ok {
		return t
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

// stringKind tells dates and wall clocks from other strings by their format
// or by what their pattern accepts (and refuses: a symbol's pattern also
// takes "2025-01-02").
func stringKind(s map[string]any) valueKind {
	pattern, _ := s["pattern"].(string)
	switch {
	case patternAccepts(pattern, "2025-01-02T10:30:00") && !patternAccepts(pattern, "2025-13-45T10:30:00"):
		return kindWallClock
	case s["format"] == "date" || patternAccepts(pattern, "2025-01-02") && !patternAccepts(pattern, "2025-13-45"):
		return kindDate
	}
	return kindText
}

func patternAccepts(pattern, value string) bool {
	if pattern == "" {
		return false
	}
	re, err := regexp.Compile(pattern)
	return err == nil && re.MatchString(value)
}

// paramKind is the kind of a parameter's value.
func paramKind(p sweepParam) valueKind {
	switch schemaType(p.schema) {
	case "number", "integer":
		return kindNumber
	}
	return stringKind(p.schema)
}

// validSample is a value the schema of a required parameter accepts, so
// that the request fails only for the bad value under test.
func validSample(t *testing.T, p sweepParam) string {
	t.Helper()
	v, ok := sampleScalar(p.schema)
	if !ok {
		t.Fatalf("required parameter %s: no sample value matches %v; add one to sampleScalar", p.name, p.schema)
	}
	return fmt.Sprint(v)
}

// sampleScalar is a string or number schema s accepts: its first enum value
// that is not an UNSPECIFIED, a date or wall clock, a short text its pattern
// takes, or a number inside its bounds.
func sampleScalar(s map[string]any) (any, bool) {
	for _, v := range asSlice(s["enum"]) {
		if text := fmt.Sprint(v); !strings.HasSuffix(text, "UNSPECIFIED") {
			return v, true
		}
	}
	switch schemaType(s) {
	case "number", "integer":
		n := 1.0
		if min, ok := s["minimum"].(float64); ok && min > n {
			n = min
		}
		if max, ok := s["maximum"].(float64); ok && max < n {
			n = max
		}
		return n, true
	case "boolean":
		return false, true
	}
	switch stringKind(s) {
	case kindDate:
		return "2025-02-03", true
	case kindWallClock:
		return "2025-02-03T10:00:00", true
	}
	pattern, _ := s["pattern"].(string)
	for _, candidate := range []string{"TCS", "1", "10:00"} {
		if pattern == "" || patternAccepts(pattern, candidate) {
			return candidate, true
		}
	}
	return nil, false
}

// resolve follows a $ref to components/schemas, and takes the first
// alternative of an allOf, anyOf or oneOf without a type of its own.
func (d openAPIDoc) resolve(s map[string]any) map[string]any {
	for i := 0; i < 20 && s != nil; i++ {
		if ref, ok := s["$ref"].(string); ok {
			s = asObject(d.schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
			continue
		}
		if schemaType(s) != "" {
			return s
		}
		var first map[string]any
		for _, key := range []string{"allOf", "anyOf", "oneOf"} {
			if alts := asSlice(s[key]); first == nil && len(alts) > 0 {
				first = asObject(alts[0])
			}
		}
		if first == nil {
			return s
		}
		s = first
	}
	return s
}

// sample is a value of schema s with its required properties (and one item
// of each required list) filled in with valid samples.
func (d openAPIDoc) sample(s map[string]any, depth int) any {
	s = d.resolve(s)
	if s == nil || depth > 8 {
		return nil
	}
	switch schemaType(s) {
	case "object":
		obj := map[string]any{}
		props := asObject(s["properties"])
		for _, name := range asSlice(s["required"]) {
			obj[fmt.Sprint(name)] = d.sample(asObject(props[fmt.Sprint(name)]), depth+1)
		}
		return obj
	case "array":
		return []any{d.sample(asObject(s["items"]), depth+1)}
	}
	v, _ := sampleScalar(s)
	return v
}

// child is the schema of step (a property name or a list index) inside s.
func (d openAPIDoc) child(s map[string]any, step any) map[string]any {
	s = d.resolve(s)
	if _, ok := step.(int); ok {
		return asObject(s["items"])
	}
	name := fmt.Sprint(step)
	if p, ok := asObject(s["properties"])[name]; ok {
		return asObject(p)
	}
	for _, key := range []string{"allOf", "anyOf", "oneOf"} {
		for _, alt := range asSlice(s[key]) {
			if c := d.child(asObject(alt), step); c != nil {
				return c
			}
		}
	}
	return nil
}

// withValue returns a copy of body (of schema s) with the value at path
// replaced by value. Objects and lists missing on the way are created with
// their required properties sampled, so the request is valid but for the
// value under test.
func (d openAPIDoc) withValue(s map[string]any, body any, path []any, value any) any {
	if len(path) == 0 {
		return value
	}
	if body == nil {
		body = d.sample(s, 0)
	}
	inner := d.child(s, path[0])
	switch step := path[0].(type) {
	case string:
		obj := map[string]any{}
		for k, x := range asObject(body) {
			obj[k] = x
		}
		obj[step] = d.withValue(inner, obj[step], path[1:], value)
		return obj
	case int:
		list := append([]any(nil), asSlice(body)...)
		for len(list) <= step {
			list = append(list, nil)
		}
		list[step] = d.withValue(inner, list[step], path[1:], value)
		return list
	}
	panic(fmt.Sprintf("bad path step %v", path[0]))
}
