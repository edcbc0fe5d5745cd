package routes

import (
	"regexp"
	"strings"
)

// The gateway's own documents, served beside the API and needing no token.
const (
	// OpenAPIPath is where the OpenAPI document is served.
	OpenAPIPath = "/openapi.json"
	// DocsPath is where Swagger UI is served; its assets are under DocsPath/.
	DocsPath = "/docs"
)

// versionSegment matches a version segment of the API (v1, v2, ...): every
// path under one stays the API's, so /v2/x is still the JSON 404.
var versionSegment = regexp.MustCompile(`^v[0-9]+$`)

// FirstSegment is the first segment of path: "v1" of /v1/developer/quote.
func FirstSegment(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return first
}

// IsVersionSegment reports whether a first segment names a version of the
// API (v1, v2, ...).
func IsVersionSegment(segment string) bool {
	return versionSegment.MatchString(segment)
}

// IsAPIPath reports whether path belongs to the API's namespaces (the
// routes of docs/api.md, the OpenAPI document, Swagger UI, health,
// metrics), which the dashboard never answers.
func IsAPIPath(path string) bool {
	first := FirstSegment(path)
	switch first {
	case "health", "openapi.json", "docs", "metrics":
		return true
	}
	return IsVersionSegment(first)
}
