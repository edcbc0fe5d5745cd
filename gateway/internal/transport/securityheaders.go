package transport

import (
	"net/http"

	"mdc/gateway/internal/routes"
)

// WithSecurityHeaders sets the headers every answer carries:
// X-Content-Type-Options: nosniff (no browser guesses a type from content),
// and on the API's answers Cache-Control: no-store, since they are a
// developer's data and some carry tokens (CreateDeveloper,
// RefreshDeveloperKey, GetBrokerToken); the handlers may replace it (the
// streams say no-cache, the dashboard's files their own caching).
func WithSecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		if first := routes.FirstSegment(r.URL.Path); routes.IsVersionSegment(first) || first == "health" || r.URL.Path == routes.OpenAPIPath {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}
