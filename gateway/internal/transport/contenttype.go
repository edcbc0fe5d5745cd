package transport

import (
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/routes"
)

// RequireJSON answers 415 before the body is read when a request with a
// body to a route of the API does not say it is JSON: Content-Type
// application/json or application/<something>+json, parameters (charset)
// allowed. A missing Content-Type is refused too: an HTML form can only send
// application/x-www-form-urlencoded, multipart/form-data or text/plain, so
// no other site can make a browser send a request the API accepts
// (docs/api.md, Conventions). The routes whose body is a file (the admin
// imports) take text/csv instead, which no form can send either.
func RequireJSON(table *routes.Table, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody && takesBody(r.Method) {
			if same, _ := table.Find(r.Method, r.URL.Path); same != "" {
				problem := contentTypeProblem
				if table.TakesCSV(r.Method, r.URL.Path) {
					problem = csvContentTypeProblem
				}
				if msg := problem(r.Header.Values("Content-Type")); msg != "" {
					// The body stays unread on the connection.
					w.Header().Set("Connection", "close")
					apierror.Write(w, m, http.StatusUnsupportedMediaType, status.New(codes.InvalidArgument, msg))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func takesBody(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// contentTypeProblem is why the Content-Type header values are refused, or
// "" when they say JSON.
func contentTypeProblem(values []string) string {
	return mediaTypeProblem(values, "the request body must be JSON: send 'Content-Type: application/json'",
		func(media string) bool {
			return media == "application/json" || (strings.HasPrefix(media, "application/") && strings.HasSuffix(media, "+json"))
		})
}

// csvContentTypeProblem is why the Content-Type header values of a route
// taking a file are refused, or "" when they say CSV.
func csvContentTypeProblem(values []string) string {
	return mediaTypeProblem(values, "the request body must be the CSV file: send 'Content-Type: text/csv'",
		func(media string) bool { return media == "text/csv" })
}

// mediaTypeProblem is why values, the Content-Type header values, are not
// one media type that accepts, after rule; "" when they are.
func mediaTypeProblem(values []string, rule string, accepts func(media string) bool) string {
	if len(values) != 1 {
		if len(values) == 0 {
			return rule + "; the request has no Content-Type"
		}
		return rule + "; the request has several Content-Type headers"
	}
	media, _, err := mime.ParseMediaType(values[0])
	if err != nil {
		return rule + "; the Content-Type is malformed"
	}
	if accepts(media) {
		return ""
	}
	return fmt.Sprintf("%s; got %q", rule, cutForMessage(media))
}

// cutForMessage keeps client text quoted in a message short.
func cutForMessage(s string) string {
	const max = 64
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
