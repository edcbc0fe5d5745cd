package transport

import (
	"fmt"
	"net/http"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
)

// Request header limits. A request over either gets 431 with a
// google.rpc.Status body (code INVALID_ARGUMENT) before anything is
// forwarded. A header field is counted as len(name)+len(value); a header
// sent several times counts once per value.
const (
	// MaxHeaderFieldBytes bounds one header field.
	MaxHeaderFieldBytes = 8 << 10
	// MaxHeaderTotalBytes bounds all header fields of a request together.
	MaxHeaderTotalBytes = 64 << 10
	// MaxHTTPHeaderBytes is http.Server.MaxHeaderBytes: net/http itself
	// answers a plain-text 431 to requests whose header block exceeds it,
	// so it is well above MaxHeaderTotalBytes to let the JSON answer above
	// handle every realistic case.
	MaxHTTPHeaderBytes = 1 << 20
)

// LimitHeaders answers 431 to a request whose headers exceed the limits
// above. Forwarded as gRPC metadata, they would otherwise fail in the
// gRPC transport with an internal error.
func LimitHeaders(m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := oversizedHeaders(r.Header); msg != "" {
			w.Header().Set("Connection", "close")
			apierror.Write(w, m, http.StatusRequestHeaderFieldsTooLarge, status.New(codes.InvalidArgument, msg))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// oversizedHeaders describes how h exceeds the limits, "" when it does not.
func oversizedHeaders(h http.Header) string {
	total := 0
	for name, values := range h {
		for _, v := range values {
			n := len(name) + len(v)
			if n > MaxHeaderFieldBytes {
				return fmt.Sprintf("request header %s is larger than %d bytes", apierror.SanitizeUTF8(name), MaxHeaderFieldBytes)
			}
			total += n
		}
	}
	if total > MaxHeaderTotalBytes {
		return fmt.Sprintf("request headers are larger than %d bytes in total", MaxHeaderTotalBytes)
	}
	return ""
}
