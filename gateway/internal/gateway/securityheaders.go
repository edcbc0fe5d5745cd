package gateway

import (
	"net/http"
	"strings"
)

// withSecurityHeaders sets the headers every answer carries:
// X-Content-Type-Options: nosniff (no browser guesses a type from content),
// and on the API's answers Cache-Control: no-store, since they are a
// developer's data and some carry tokens (CreateDeveloper,
// RefreshDeveloperKey, GetBrokerToken); the handlers may replace it (the
// streams say no-cache, the dashboard's files their own caching).
func withSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if first := firstSegment(r.URL.Path); apiVersionSegment.MatchString(first) || first == "health" || r.URL.Path == openAPIPath {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// firstSegment is the first segment of path: "v1" of /v1/developer/quote.
func firstSegment(path string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	return first
}
