package transport

import (
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
)

// Messages of a refused Authorization header: the same words as mdc-server
// (service/auth/auth.cc), so a client sees the same 401 whichever of the two
// refuses it.
const (
	MissingAuthMessage   = "missing Authorization header; send 'Authorization: Bearer <token>'"
	MalformedAuthMessage = "malformed Authorization header; expected 'Bearer <token>'"
	BadTokenMessage      = "unknown or revoked token"
	// maxTokenBytes is the longest token the server accepts.
	maxTokenBytes = 512
)

// RequireBearer answers 401 (google.rpc.Status, WWW-Authenticate: Bearer)
// before the body is read when a request to a protected route carries no
// well-formed bearer header: scheme Bearer in any case, then a token of 1-512
// bytes. Whether the token is known stays mdc-server's job; what the server
// answered is noted in known (knowntokens.go) for the body budget. Public
// routes (health, sign-in, /openapi.json, /docs: routes.Table.Protected) and
// requests no route matches (404, 405 from the mux) pass unchecked.
func RequireBearer(table *routes.Table, known *KnownTokens, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if display, ok := table.Protected(r.Method, r.URL.Path); ok {
			if msg := bearerProblem(r.Header.Get("Authorization")); msg != "" {
				if info := reqinfo.From(r.Context()); info != nil {
					info.Route = display
				}
				if r.ContentLength != 0 {
					// The unread body stays on the connection: do not reuse it.
					w.Header().Set("Connection", "close")
				}
				apierror.Write(w, m, http.StatusUnauthorized, status.New(codes.Unauthenticated, msg))
				return
			}
			next.ServeHTTP(w, r)
			if info := reqinfo.From(r.Context()); info != nil {
				switch {
				case info.TokenAccepted:
					known.remember(r.Header.Get("Authorization"))
				case info.TokenRefused:
					known.forget(r.Header.Get("Authorization"))
				}
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// bearerProblem is why the Authorization header h is refused, or "" when its
// form is right. It mirrors Authenticator::TokenHash of mdc-server.
func bearerProblem(h string) string {
	const scheme = "bearer "
	if h == "" {
		return MissingAuthMessage
	}
	if len(h) <= len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return MalformedAuthMessage
	}
	token := strings.Trim(h[len(scheme):], " \t\n\v\f\r")
	if token == "" || len(token) > maxTokenBytes {
		return BadTokenMessage
	}
	return ""
}
