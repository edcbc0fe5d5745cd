package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Request header limits. A request over either gets 431 with a
// google.rpc.Status body (code INVALID_ARGUMENT) before anything is
// forwarded. A header field is counted as len(name)+len(value); a header
// sent several times counts once per value.
const (
	// maxHeaderFieldBytes bounds one header field.
	maxHeaderFieldBytes = 8 << 10
	// maxHeaderTotalBytes bounds all header fields of a request together.
	maxHeaderTotalBytes = 64 << 10
	// maxHTTPHeaderBytes is http.Server.MaxHeaderBytes: net/http itself
	// answers a plain-text 431 to requests whose header block exceeds it,
	// so it is well above maxHeaderTotalBytes to let the JSON answer above
	// handle every realistic case.
	maxHTTPHeaderBytes = 1 << 20
	// maxGRPCHeaderListBytes is the gRPC client's max header list size: the
	// largest metadata it accepts from the server. Forwarded requests carry
	// at most maxHeaderTotalBytes of headers, plus what the gateway adds
	// (grpcgateway- prefixes, x-forwarded-for, x-request-id, and HPACK's 32
	// bytes per field), so the server's answers get the same room plus that
	// overhead.
	maxGRPCHeaderListBytes = maxHeaderTotalBytes + 16<<10
)

// errHeaderListTooLarge is returned by the gRPC client interceptor when the
// metadata of a call exceeds the header list size the server advertises
// (mdc-server: gRPC's default, 8 KiB); handleError answers it with 431.
var errHeaderListTooLarge = errors.New("request metadata exceeds the server's header list size")

// headerListLimit is the limit in grpc-go's error text, "" if none.
var headerListLimit = regexp.MustCompile(`maximum size \((\d+) bytes\)`)

// headerListError is errHeaderListTooLarge with the server's limit, taken
// from err when it says.
func headerListError(err error) error {
	if m := headerListLimit.FindStringSubmatch(status.Convert(err).Message()); m != nil {
		return fmt.Errorf("%w (%s bytes)", errHeaderListTooLarge, m[1])
	}
	return errHeaderListTooLarge
}

var limitInError = regexp.MustCompile(`\((\d+) bytes\)`)

// headerListMessage is the client-facing message of a headerListError.
func headerListMessage(err error) string {
	msg := "the request headers forwarded to the server (Authorization, X-Current-*, X-Run-Id and the standard HTTP headers) are larger than it accepts"
	if m := limitInError.FindStringSubmatch(err.Error()); m != nil {
		msg += " (" + m[1] + " bytes in all)"
	}
	return msg
}

// isHeaderListSizeError reports whether err is grpc-go's refusal to send a
// header list larger than the peer's SETTINGS_MAX_HEADER_LIST_SIZE
// (internal/transport, "header list size to send violates the maximum
// size"). TestHeaderListTooLargeForServer pins the text.
func isHeaderListSizeError(err error) bool {
	st, ok := status.FromError(err)
	return ok && st.Code() == codes.Internal && strings.Contains(st.Message(), "header list size")
}

// limitHeaders answers 431 to a request whose headers exceed the limits
// above. Forwarded as gRPC metadata, they would otherwise fail in the
// gRPC transport with an internal error.
func limitHeaders(m runtime.Marshaler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if msg := oversizedHeaders(r.Header); msg != "" {
			w.Header().Set("Connection", "close")
			writeStatus(w, m, http.StatusRequestHeaderFieldsTooLarge, status.New(codes.InvalidArgument, msg))
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
			if n > maxHeaderFieldBytes {
				return fmt.Sprintf("request header %s is larger than %d bytes", sanitizeUTF8(name), maxHeaderFieldBytes)
			}
			total += n
		}
	}
	if total > maxHeaderTotalBytes {
		return fmt.Sprintf("request headers are larger than %d bytes in total", maxHeaderTotalBytes)
	}
	return ""
}
