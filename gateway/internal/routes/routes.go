// Package routes is the gateway's route table: every HTTP route of the
// mdc.v1 services, read from the google.api.http bindings of the
// descriptors, with what each route's RPC options say about it (whether it
// needs a token, whether it streams), plus the routes of the gateway's own
// documents; and the namespaces of the API. The layers in front of the mux
// match requests against it (the bearer check, 415, 405's Allow, the route
// of log lines and metrics).
package routes

import (
	"net/http"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/internal/rpcpolicy"
)

// Route is one HTTP method and path template the gateway serves.
type Route struct {
	Method string
	// Template as registered with the mux, e.g. /v1/dashboard/runs/{run_id}.
	Template string
	// Display is the template with JSON names for its variables, as in
	// docs/api.md and the OpenAPI document, e.g. /v1/dashboard/runs/{runId}.
	// It is the "route" of log lines.
	Display string
	// segs is template split as templateSegments does, once.
	segs []string
	// public: the route needs no token (its RPC is ACCESS_PUBLIC, or it is
	// one of the gateway's own documents).
	public bool
	// stream: the route's RPC streams its answer (server streaming).
	stream bool
	// heavy: the route's RPC is a heavy read (option heavy_read).
	heavy bool
	// csvBody: the route's body is a file (its http rule's body names a
	// bytes field), sent as Content-Type text/csv.
	csvBody bool
}

// Table is every route of the gateway: the google.api.http bindings of the
// mdc.v1 descriptors (including additional_bindings) and the paths
// registered with HandlePath. It is read-only once the handler is built.
type Table struct {
	routes []Route
	// byPattern maps the string form of a runtime.Pattern
	// (/v1/dashboard/runs/{run_id=*}) to its display template.
	byPattern map[string]string
	// streaming are the routes whose RPC streams its answer.
	streaming []Route
	// heavy are the routes whose RPC is a heavy read.
	heavy []Route
	// csvBodies are the routes whose body is a CSV file.
	csvBodies []Route
}

// Descriptors reads the routes of every service in the mdc.v1 package
// from the generated descriptors, with what the options of each route's
// RPC say about it (rpcpolicy): whether it needs a token, whether it
// streams, whether it is a heavy read.
func Descriptors() []Route {
	var routes []Route
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		rule, ok := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		if !ok || rule == nil {
			return
		}
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			if method, tmpl := HTTPRule(r); method != "" {
				routes = append(routes, Route{Method: method, Template: tmpl, Display: jsonTemplate(tmpl, md.Input()),
					public: rpcpolicy.Public(md), stream: md.IsStreamingServer(), heavy: rpcpolicy.HeavyRead(md),
					csvBody: IsFileBody(r, md.Input())})
			}
		}
	})
	return routes
}

// IsFileBody reports whether rule's body is one bytes field of input: a
// file sent as the whole request body (Content-Type text/csv), not JSON.
func IsFileBody(rule *annotations.HttpRule, input protoreflect.MessageDescriptor) bool {
	body := rule.GetBody()
	if body == "" || body == "*" {
		return false
	}
	fd := input.Fields().ByName(protoreflect.Name(body))
	return fd != nil && fd.Kind() == protoreflect.BytesKind && !fd.IsList()
}

// HTTPRule is the HTTP method and path template of an http rule, "" for a
// rule without a pattern.
func HTTPRule(r *annotations.HttpRule) (method, path string) {
	switch p := r.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	case *annotations.HttpRule_Custom:
		return strings.ToUpper(p.Custom.GetKind()), p.Custom.GetPath()
	}
	return "", ""
}

// NewTable is the table of routes (Descriptors, for the gateway's).
func NewTable(routes []Route) *Table {
	t := &Table{routes: routes, byPattern: make(map[string]string, len(routes))}
	for i := range t.routes {
		r := &t.routes[i]
		r.segs = templateSegments(r.Template)
		t.byPattern[patternString(r.Template)] = r.Display
		if r.stream {
			t.streaming = append(t.streaming, *r)
		}
		if r.heavy {
			t.heavy = append(t.heavy, *r)
		}
		if r.csvBody {
			t.csvBodies = append(t.csvBodies, *r)
		}
	}
	return t
}

// Add records a route registered with HandlePath: one of the gateway's own
// documents (/openapi.json, Swagger UI), which need no token.
func (t *Table) Add(method, template string) {
	t.routes = append(t.routes, Route{Method: method, Template: template, Display: template,
		segs: templateSegments(template), public: true})
	t.byPattern[patternString(template)] = template
}

// Find is the display template of the first route of method that matches
// path (same) and of the first route of any method that does (other); ""
// where there is none.
func (t *Table) Find(method, path string) (same, other string) {
	psegs := pathSegments(path)
	for i := range t.routes {
		r := &t.routes[i]
		if !segmentsMatch(r.segs, psegs) {
			continue
		}
		if other == "" {
			other = r.Display
		}
		if r.Method == method {
			return r.Display, other
		}
	}
	return "", other
}

// lookup is the first route of method that matches path, nil when none
// does.
func (t *Table) lookup(method, path string) *Route {
	return firstMatch(t.routes, method, pathSegments(path))
}

func firstMatch(routes []Route, method string, psegs []string) *Route {
	for i := range routes {
		if r := &routes[i]; r.Method == method && segmentsMatch(r.segs, psegs) {
			return r
		}
	}
	return nil
}

// Protected reports whether a request with method and path reaches a route
// of t that needs a token, and the display template of that route (the
// "route" of the log line). Which routes need none the descriptors say
// (ACCESS_PUBLIC: health, sign-in), and the gateway's own documents
// (/openapi.json, /docs) need none either.
func (t *Table) Protected(method, path string) (string, bool) {
	r := t.lookup(method, path)
	if r == nil || r.public {
		return "", false
	}
	return r.Display, true
}

// Match is the display template of the route of method and path, or of the
// first route of path with any method.
func (t *Table) Match(method, path string) (string, bool) {
	same, other := t.Find(method, path)
	if same != "" {
		return same, true
	}
	return other, other != ""
}

// Display is the display template of the route whose runtime.Pattern
// prints as pattern (/v1/dashboard/runs/{run_id=*}), as the mux matched it.
func (t *Table) Display(pattern string) (string, bool) {
	d, ok := t.byPattern[pattern]
	return d, ok
}

// AnswersFiles records that the routes of method and templates, whose RPCs
// stream, are answered by a handler of the gateway's own that writes one
// file of the messages (the exports, internal/export): not streams over
// HTTP, so Streams is false for them and no stream framing applies.
func (t *Table) AnswersFiles(method string, templates []string) {
	t.streaming = slices.DeleteFunc(t.streaming, func(r Route) bool {
		return r.Method == method && slices.Contains(templates, r.Template)
	})
}

// Heavy reports whether method and path are a route of a heavy read.
func (t *Table) Heavy(method, path string) bool {
	return firstMatch(t.heavy, method, pathSegments(path)) != nil
}

// TakesCSV reports whether the route of method and path takes a CSV file
// as its body.
func (t *Table) TakesCSV(method, path string) bool {
	return firstMatch(t.csvBodies, method, pathSegments(path)) != nil
}

// Streams reports whether the route of method and path streams its answer.
func (t *Table) Streams(method, path string) bool {
	return firstMatch(t.streaming, method, pathSegments(path)) != nil
}

// Allowed lists, sorted, the methods whose routes match path.
func (t *Table) Allowed(path string) []string {
	var methods []string
	psegs := pathSegments(path)
	for i := range t.routes {
		if r := &t.routes[i]; segmentsMatch(r.segs, psegs) && !slices.Contains(methods, r.Method) {
			methods = append(methods, r.Method)
		}
	}
	slices.Sort(methods)
	return methods
}

// VariableAt is the JSON name of the path variable that segment i (0-based,
// after the leading slash) of path stands for in a route of method that
// matches path; "" when no such route has a variable there.
func (t *Table) VariableAt(method, path string, i int) string {
	psegs := pathSegments(path)
	for _, r := range t.routes {
		if r.Method != method || !segmentsMatch(r.segs, psegs) {
			continue
		}
		seg := 0
		for _, s := range splitTemplate(strings.TrimPrefix(r.Display, "/")) {
			span := 1
			name, pattern, isVar := "", "", strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")
			if isVar {
				var hasPattern bool
				name, pattern, hasPattern = strings.Cut(s[1:len(s)-1], "=")
				if hasPattern {
					span = len(strings.Split(pattern, "/"))
				}
			}
			if i < seg+span {
				return name
			}
			seg += span
		}
	}
	return ""
}
