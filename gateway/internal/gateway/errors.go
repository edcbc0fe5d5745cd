package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	// Registers google.rpc.BadRequest and the other detail types so details
	// of a google.rpc.Status render as JSON instead of "failed to marshal".
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
)

// handleError is the runtime.ErrorHandlerFunc of the gateway: it answers
// with the google.rpc.Status JSON {"code","message","details"} and the HTTP
// status of its code.
func handleError(ctx context.Context, _ *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if info := infoFrom(ctx); info != nil && info.bodyRefusal != nil {
		// The body was cut short on purpose; what the decoder made of the
		// rest does not matter.
		writeRefusal(w, r, m, info.bodyRefusal)
		return
	}
	if errors.Is(err, errHeaderListTooLarge) {
		// The forwarded headers exceed what the server accepts: the
		// client's doing, not a failure of the gateway.
		writeStatus(w, m, http.StatusRequestHeaderFieldsTooLarge,
			status.New(codes.InvalidArgument, headerListMessage(err)))
		return
	}
	var httpErr *runtime.HTTPStatusError
	if errors.As(err, &httpErr) {
		// grpc-gateway's own routing-level errors (e.g. a malformed path
		// escape) come with the HTTP status they want.
		st, ok := status.FromError(httpErr.Err)
		if !ok {
			st = status.New(codes.InvalidArgument, http.StatusText(httpErr.HTTPStatus))
		}
		if httpErr.HTTPStatus >= 500 {
			setCause(ctx, err)
		}
		writeStatus(w, m, httpErr.HTTPStatus, st)
		return
	}
	st := statusOf(err)
	if st.Code() == codes.Canceled && r.Context().Err() == nil {
		// The client is still waiting, so the server cancelled the call: a
		// shutting-down mdc-server cancels calls it received but had not
		// started. Nothing was written; the client should retry.
		st = status.New(codes.Unavailable, "the server cancelled the call while shutting down; retry")
	}
	if st.Code() == codes.InvalidArgument {
		// The decoder rejected the body: answer with its field violations.
		if bodySt, ok := bodyErrorStatus(st.Message()); ok {
			st = bodySt
		} else if querySt, ok := queryErrorStatus(st.Message()); ok {
			st = querySt
		}
	}
	httpStatus := apierror.HTTPStatus(st.Code())
	if httpStatus >= 500 {
		setCause(ctx, err)
	}
	writeStatus(w, m, httpStatus, st)
}

// statusOf is the client-facing status of err. gRPC statuses pass unchanged
// (the server writes its messages for the caller, and the client library's
// own errors are reworded in dial.go); anything else is an internal error
// whose text stays private.
func statusOf(err error) *status.Status {
	if st, ok := status.FromError(err); ok {
		return st
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err)
	}
	return status.New(codes.Internal, "internal error")
}

// routingErrorHandler answers requests no route matched: 404 for an unknown
// path (including any API version but v1), 405 for a known path with another
// method, with an Allow header listing the methods of the routes of routes
// that match the path.
func routingErrorHandler(routes *routeTable) runtime.RoutingErrorHandlerFunc {
	return func(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
		if httpStatus == http.StatusMethodNotAllowed && routes != nil {
			if allowed := routes.allowed(r.URL.Path); len(allowed) > 0 {
				w.Header().Set("Allow", strings.Join(allowed, ", "))
			}
		}
		handleRoutingError(ctx, mux, m, w, r, httpStatus)
	}
}

// handleRoutingError writes the body and status of a routing error.
func handleRoutingError(ctx context.Context, _ *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	var st *status.Status
	switch httpStatus {
	case http.StatusNotFound:
		st = status.New(codes.NotFound, fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path))
	case http.StatusMethodNotAllowed:
		st = status.New(codes.Unimplemented, fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path))
	case http.StatusBadRequest:
		st = status.New(codes.InvalidArgument, "malformed request path")
	default:
		st = status.New(codes.Internal, "internal error")
		setCause(ctx, fmt.Errorf("routing error with HTTP status %d", httpStatus))
	}
	writeStatus(w, m, httpStatus, st)
}

// writeStatus writes st as the JSON error body with the given HTTP status.
func writeStatus(w http.ResponseWriter, m runtime.Marshaler, httpStatus int, st *status.Status) {
	const fallback = `{"code":13,"message":"failed to marshal error message","details":[]}`
	h := w.Header()
	h.Del("Trailer")
	h.Del("Transfer-Encoding")
	h.Set("Content-Type", "application/json")
	if st.Code() == codes.Unauthenticated {
		h.Set("WWW-Authenticate", "Bearer")
	}
	setRetryAfter(h, st)
	buf, err := m.Marshal(st.Proto())
	if err != nil {
		// Text that is not UTF-8 (a client's bytes quoted back) cannot be
		// marshaled: answer with the message cleaned and without details.
		buf, err = m.Marshal(status.New(st.Code(), sanitizeUTF8(st.Message())).Proto())
	}
	if err != nil {
		recordCause(w, fmt.Errorf("marshal error body: %w", err))
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, fallback)
		return
	}
	w.WriteHeader(httpStatus)
	_, _ = w.Write(buf)
}
