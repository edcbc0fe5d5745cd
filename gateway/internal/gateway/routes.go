package gateway

import (
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mdc/gateway/internal/rpcpolicy"
)

// apiPackage is the proto package whose google.api.http bindings are the
// gateway's routes.
const apiPackage = rpcpolicy.Package

// route is one HTTP method and path template the gateway serves.
type route struct {
	method string
	// template as registered with the mux, e.g. /v1/dashboard/runs/{run_id}.
	template string
	// display is the template with JSON names for its variables, as in
	// docs/api.md and the OpenAPI document, e.g. /v1/dashboard/runs/{runId}.
	// It is the "route" of log lines.
	display string
	// segs is template split as templateSegments does, once.
	segs []string
	// public: the route needs no token (its RPC is ACCESS_PUBLIC, or it is
	// one of the gateway's own documents).
	public bool
	// stream: the route's RPC streams its answer (server streaming).
	stream bool
}

// routeTable is every route of the gateway: the google.api.http bindings
// of the mdc.v1 descriptors (including additional_bindings) and the paths
// registered with HandlePath.
type routeTable struct {
	routes []route
	// byPattern maps the string form of a runtime.Pattern
	// (/v1/dashboard/runs/{run_id=*}) to its display template.
	byPattern map[string]string
	// streaming are the routes whose RPC streams its answer.
	streaming []route
}

// descriptorRoutes reads the routes of every service in the mdc.v1 package
// from the generated descriptors, with what the options of each route's
// RPC say about it (rpcpolicy): whether it needs a token, whether it
// streams.
func descriptorRoutes() []route {
	var routes []route
	rpcpolicy.Methods(func(md protoreflect.MethodDescriptor) {
		rule, ok := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
		if !ok || rule == nil {
			return
		}
		for _, r := range append([]*annotations.HttpRule{rule}, rule.GetAdditionalBindings()...) {
			if method, tmpl := httpRuleRoute(r); method != "" {
				routes = append(routes, route{method: method, template: tmpl, display: jsonTemplate(tmpl, md.Input()),
					public: rpcpolicy.Public(md), stream: md.IsStreamingServer()})
			}
		}
	})
	return routes
}

// jsonTemplate replaces the field paths of the variables of tmpl with their
// JSON names (run_id becomes runId).
func jsonTemplate(tmpl string, msg protoreflect.MessageDescriptor) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		end += open
		b.WriteString(tmpl[:open+1])
		name, rest, hasEq := strings.Cut(tmpl[open+1:end], "=")
		b.WriteString(jsonVariablePath(name, msg))
		if hasEq {
			b.WriteString("=" + rest)
		}
		b.WriteByte('}')
		tmpl = tmpl[end+1:]
	}
}

// jsonVariablePath is the JSON form of a field path of msg.
func jsonVariablePath(path string, msg protoreflect.MessageDescriptor) string {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		if msg == nil {
			break
		}
		fd := msg.Fields().ByName(protoreflect.Name(p))
		if fd == nil {
			break
		}
		parts[i] = fd.JSONName()
		msg = fd.Message()
	}
	return strings.Join(parts, ".")
}

// patternString is the string form runtime.Pattern gives tmpl: a variable
// without a segment pattern matches one segment, {name=*}.
func patternString(tmpl string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(tmpl, '{')
		end := strings.IndexByte(tmpl, '}')
		if open < 0 || end < open {
			b.WriteString(tmpl)
			return b.String()
		}
		v := tmpl[open+1 : end]
		if !strings.Contains(v, "=") {
			v += "=*"
		}
		b.WriteString(tmpl[:open] + "{" + v + "}")
		tmpl = tmpl[end+1:]
	}
}

func newRouteTable(routes []route) *routeTable {
	t := &routeTable{routes: routes, byPattern: make(map[string]string, len(routes))}
	for i := range t.routes {
		r := &t.routes[i]
		r.segs = templateSegments(r.template)
		t.byPattern[patternString(r.template)] = r.display
		if r.stream {
			t.streaming = append(t.streaming, *r)
		}
	}
	return t
}

// add records a route registered with HandlePath: one of the gateway's own
// documents (/openapi.json, Swagger UI), which need no token.
func (t *routeTable) add(method, template string) {
	t.routes = append(t.routes, route{method: method, template: template, display: template,
		segs: templateSegments(template), public: true})
	t.byPattern[patternString(template)] = template
}

// find is the display template of the first route of method that matches
// path (same) and of the first route of any method that does (other); ""
// where there is none.
func (t *routeTable) find(method, path string) (same, other string) {
	psegs := pathSegments(path)
	for i := range t.routes {
		r := &t.routes[i]
		if !segmentsMatch(r.segs, psegs) {
			continue
		}
		if other == "" {
			other = r.display
		}
		if r.method == method {
			return r.display, other
		}
	}
	return "", other
}

// lookup is the first route of method that matches path, nil when none
// does.
func (t *routeTable) lookup(method, path string) *route {
	return firstMatch(t.routes, method, pathSegments(path))
}

func firstMatch(routes []route, method string, psegs []string) *route {
	for i := range routes {
		if r := &routes[i]; r.method == method && segmentsMatch(r.segs, psegs) {
			return r
		}
	}
	return nil
}

// streams reports whether the route of method and path streams its answer.
func (t *routeTable) streams(method, path string) bool {
	return firstMatch(t.streaming, method, pathSegments(path)) != nil
}

// allowed lists, sorted, the methods whose routes match path.
func (t *routeTable) allowed(path string) []string {
	var methods []string
	psegs := pathSegments(path)
	for i := range t.routes {
		if r := &t.routes[i]; segmentsMatch(r.segs, psegs) && !slices.Contains(methods, r.method) {
			methods = append(methods, r.method)
		}
	}
	slices.Sort(methods)
	return methods
}

// variableAt is the JSON name of the path variable that segment i (0-based,
// after the leading slash) of path stands for in a route of method that
// matches path; "" when no such route has a variable there.
func (t *routeTable) variableAt(method, path string, i int) string {
	psegs := pathSegments(path)
	for _, r := range t.routes {
		if r.method != method || !segmentsMatch(r.segs, psegs) {
			continue
		}
		seg := 0
		for _, s := range splitTemplate(strings.TrimPrefix(r.display, "/")) {
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

// templateMatches reports whether path matches the path template tmpl: a
// literal segment matches itself, a variable or "*" one segment, "**" the
// rest of the path. A trailing ":verb" must match literally.
func templateMatches(tmpl, path string) bool {
	return segmentsMatch(templateSegments(tmpl), pathSegments(path))
}

// pathSegments splits a request path into its segments.
func pathSegments(path string) []string {
	return strings.Split(strings.TrimPrefix(path, "/"), "/")
}

// segmentsMatch is templateMatches of a template split by templateSegments
// and a path split by pathSegments.
func segmentsMatch(tsegs, psegs []string) bool {
	for i, ts := range tsegs {
		if ts == "**" {
			return true
		}
		if i >= len(psegs) {
			return false
		}
		if ts != "*" && ts != psegs[i] {
			return false
		}
	}
	return len(tsegs) == len(psegs)
}

// templateSegments splits tmpl into literal segments, "*" and "**", a
// variable standing for its own segment pattern (one segment when it has
// none).
func templateSegments(tmpl string) []string {
	var segs []string
	for _, s := range splitTemplate(strings.TrimPrefix(tmpl, "/")) {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			_, pat, ok := strings.Cut(s[1:len(s)-1], "=")
			if !ok {
				pat = "*"
			}
			segs = append(segs, strings.Split(pat, "/")...)
			continue
		}
		segs = append(segs, s)
	}
	return segs
}

// splitTemplate splits on the slashes outside braces.
func splitTemplate(s string) []string {
	var segs []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '/':
			if depth == 0 {
				segs = append(segs, s[start:i])
				start = i + 1
			}
		}
	}
	return append(segs, s[start:])
}
