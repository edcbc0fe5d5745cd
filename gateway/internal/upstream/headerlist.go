package upstream

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/transport"
)

// maxGRPCHeaderListBytes is the gRPC client's max header list size: the
// largest metadata it accepts from the server. Forwarded requests carry at
// most transport.MaxHeaderTotalBytes of headers, plus what the gateway adds
// (grpcgateway- prefixes, x-forwarded-for, x-request-id, and HPACK's 32
// bytes per field), so the server's answers get the same room plus that
// overhead.
const maxGRPCHeaderListBytes = transport.MaxHeaderTotalBytes + 16<<10

// ErrHeaderListTooLarge is returned by the gRPC client interceptor when the
// metadata of a call exceeds the header list size the server advertises
// (mdc-server: gRPC's default, 8 KiB); the gateway's error handler answers
// it with 431 and HeaderListMessage.
var ErrHeaderListTooLarge = errors.New("request metadata exceeds the server's header list size")

// headerListLimit is the limit in grpc-go's error text, "" if none.
var headerListLimit = regexp.MustCompile(`maximum size \((\d+) bytes\)`)

// headerListError is ErrHeaderListTooLarge with the server's limit, taken
// from err when it says.
func headerListError(err error) error {
	if m := headerListLimit.FindStringSubmatch(status.Convert(err).Message()); m != nil {
		return fmt.Errorf("%w (%s bytes)", ErrHeaderListTooLarge, m[1])
	}
	return ErrHeaderListTooLarge
}

var limitInError = regexp.MustCompile(`\((\d+) bytes\)`)

// HeaderListMessage is the client-facing message of a headerListError.
func HeaderListMessage(err error) string {
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
