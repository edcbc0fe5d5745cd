package transport

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
)

// What a browser may send cross-origin: every method the API routes use and
// the request headers it reads (docs/api.md section 1).
const (
	CORSAllowMethods = "GET, POST, PUT, PATCH, DELETE"
	CORSAllowHeaders = "Authorization, Content-Type, X-Current-Timestamp, X-Current-Timezone, X-Run-Id"
	// WWW-Authenticate comes with every 401.
	corsExposeHeaders = "WWW-Authenticate"
	// How long a browser may cache a preflight answer, in seconds.
	corsMaxAge = "600"
)

// ParseOrigins reads the comma-separated origin allow-list of
// MDC_CORS_ORIGINS: each entry scheme://host[:port], with no path. An empty
// list turns CORS off.
func ParseOrigins(list string) ([]string, error) {
	var origins []string
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		u, err := url.Parse(entry)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return nil, fmt.Errorf("CORS origin %q: want scheme://host[:port], e.g. https://dashboard.example.com", entry)
		}
		// Browsers send the scheme and host in lower case.
		origins = append(origins, strings.ToLower(u.Scheme+"://"+u.Host))
	}
	return origins, nil
}

// WithCORS answers cross-origin requests from the allowed origins: their
// requests get Access-Control-Allow-Origin, their preflights (OPTIONS with
// Access-Control-Request-Method) are answered here with the methods and
// headers the API uses. A preflight from any other origin is 403; its
// plain requests are served without CORS headers, so the browser keeps the
// answer from the page. With no origins, next is returned unchanged.
func WithCORS(origins []string, m runtime.Marshaler, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		// The answer depends on Origin whether or not it is allowed.
		h.Add("Vary", "Origin")
		allowed := slices.Contains(origins, origin)
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		switch {
		case preflight && allowed:
			h.Add("Vary", "Access-Control-Request-Method")
			h.Add("Vary", "Access-Control-Request-Headers")
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Methods", CORSAllowMethods)
			h.Set("Access-Control-Allow-Headers", CORSAllowHeaders)
			h.Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
		case preflight:
			st := status.New(codes.PermissionDenied, fmt.Sprintf("origin %q is not allowed to call this API (MDC_CORS_ORIGINS)", origin))
			apierror.Write(w, m, http.StatusForbidden, st)
		case allowed:
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			next.ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}
