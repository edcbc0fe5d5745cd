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

// TokenCheck asks mdc-server whether the bearer token of r's Authorization
// header belongs to a developer, before r's body is read. It answers the
// server's status: OK, UNAUTHENTICATED (no developer holds it),
// RESOURCE_EXHAUSTED (the client's address is throttled for failed tokens),
// or anything else when the check could not be made (the request then goes
// on as before and the server decides).
type TokenCheck func(r *http.Request) *status.Status

// RequireBearer answers 401 (google.rpc.Status, WWW-Authenticate: Bearer)
// before the body is read when a request to a protected route carries no
// well-formed bearer header: scheme Bearer in any case, then a token of 1-512
// bytes. Public routes (health, sign-in, /openapi.json, /docs:
// routes.Table.Protected) and requests no route matches (404, 405 from the
// mux) pass unchecked.
//
// A request with a body whose token the server has not accepted lately
// (known, knowntokens.go) is checked first (check; nil: none): an unknown
// token is 401 and a throttled address 429 before one byte of the body is
// read, so a caller without a valid token costs the gateway and the server
// only its headers and one token lookup, whatever body it announces
// (docs/operations.md, "Memory per request"). The server still checks every
// request's token itself; what it answered is noted in known.
func RequireBearer(table *routes.Table, known *KnownTokens, check TokenCheck, m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		display, ok := table.Protected(r.Method, r.URL.Path)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		header := r.Header.Get("Authorization")
		refuse := func(httpStatus int, st *status.Status) {
			if info := reqinfo.From(r.Context()); info != nil {
				info.Route = display
			}
			if r.ContentLength != 0 {
				// The unread body stays on the connection: do not reuse it.
				w.Header().Set("Connection", "close")
			}
			apierror.Write(w, m, httpStatus, st)
		}
		if msg := bearerProblem(header); msg != "" {
			refuse(http.StatusUnauthorized, status.New(codes.Unauthenticated, msg))
			return
		}
		if check != nil && r.ContentLength != 0 && !known.known(header) {
			st := check(r)
			switch st.Code() {
			case codes.OK:
				known.remember(header)
			case codes.Unauthenticated:
				if info := reqinfo.From(r.Context()); info != nil {
					info.TokenRefused = true
				}
				refuse(http.StatusUnauthorized, status.New(codes.Unauthenticated, BadTokenMessage))
				return
			case codes.ResourceExhausted:
				refuse(http.StatusTooManyRequests, st)
				return
			}
		}
		next.ServeHTTP(w, r)
		if info := reqinfo.From(r.Context()); info != nil {
			switch {
			case info.TokenAccepted:
				known.remember(header)
			case info.TokenRefused:
				known.forget(header)
			}
		}
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
