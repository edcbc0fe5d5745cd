package routes

// Path templates of google.api.http rules (/v1/dashboard/runs/{run_id}):
// their display form with JSON names, the mux's form of them, and matching
// a request path against them.

import (
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

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
