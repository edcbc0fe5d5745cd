package transport

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/routes"
)

// RejectInvalidUTF8 answers 400 to a request whose path or query
// parameters, once percent-decoded, are not UTF-8. Protobuf strings must be
// UTF-8: forwarded as they are, the gRPC client cannot marshal them and the
// caller would get a 500 for its own mistake.
//
// It also answers 400 to a forwarded mdc header (X-Current-Timestamp,
// X-Current-Timezone, X-Run-Id) holding a byte outside printable ASCII:
// gRPC metadata cannot carry it, so the header would be dropped on the way
// and the request answered as if it had none, although the value is
// malformed.
func RejectInvalidUTF8(m runtime.Marshaler, table *routes.Table, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		vs := invalidUTF8(r.Method, r.URL, table)
		vs = append(vs, unprintableHeaders(r.Header)...)
		if len(vs) > 0 {
			apierror.Write(w, m, http.StatusBadRequest, apierror.ViolationsStatus(vs))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// invalidUTF8 lists the parts of u that are not UTF-8: a path segment, by
// the name of the route variable it stands for ("path" when no route of
// method has one there), and query parameters by name.
func invalidUTF8(method string, u *url.URL, table *routes.Table) []apierror.Violation {
	const problem = "is not valid UTF-8"
	var vs []apierror.Violation
	if !utf8.ValidString(u.Path) {
		field := "path"
		for i, seg := range strings.Split(strings.TrimPrefix(u.Path, "/"), "/") {
			if !utf8.ValidString(seg) {
				if name := table.VariableAt(method, u.Path, i); name != "" {
					field = name
				}
				break
			}
		}
		vs = append(vs, apierror.Violation{Field: field, Description: problem})
	}
	if u.RawQuery == "" {
		return vs
	}
	query := u.Query()
	names := make([]string, 0, len(query))
	for name := range query {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		valid := utf8.ValidString(name)
		for _, v := range query[name] {
			valid = valid && utf8.ValidString(v)
		}
		if !valid {
			vs = append(vs, apierror.Violation{Field: apierror.SanitizeUTF8(name), Description: problem})
		}
	}
	return vs
}

// printableHeaders are the mdc request headers forwarded as metadata
// (gateway/headers.go): the backtest clock, which the server parses, and the run
// id, which it logs.
var printableHeaders = []string{"X-Current-Timestamp", "X-Current-Timezone", "X-Run-Id"}

func unprintableHeaders(h http.Header) []apierror.Violation {
	var vs []apierror.Violation
	for _, name := range printableHeaders {
		for _, v := range h.Values(name) {
			if strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0 {
				vs = append(vs, apierror.Violation{Field: name, Description: "must be printable ASCII"})
				break
			}
		}
	}
	return vs
}
