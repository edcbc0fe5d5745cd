package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	// Registers google.rpc.BadRequest and the other detail types so details
	// of a google.rpc.Status render as JSON instead of "failed to marshal".
	_ "google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/codec"
	"mdc/gateway/internal/reqinfo"
	"mdc/gateway/internal/routes"
	"mdc/gateway/internal/upstream"
)

// handleError is the runtime.ErrorHandlerFunc of the gateway: it answers
// with the google.rpc.Status JSON {"code","message","details"} and the HTTP
// status of its code.
func handleError(ctx context.Context, _ *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if info := reqinfo.From(ctx); info != nil && info.BodyRefusal != nil {
		// The body was cut short on purpose; what the decoder made of the
		// rest does not matter.
		apierror.WriteRefusal(w, r, m, info.BodyRefusal)
		return
	}
	if errors.Is(err, upstream.ErrHeaderListTooLarge) {
		// The forwarded headers exceed what the server accepts: the
		// client's doing, not a failure of the gateway.
		apierror.Write(w, m, http.StatusRequestHeaderFieldsTooLarge,
			status.New(codes.InvalidArgument, upstream.HeaderListMessage(err)))
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
			reqinfo.SetCause(ctx, err)
		}
		apierror.Write(w, m, httpErr.HTTPStatus, st)
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
		if bodySt, ok := codec.BodyErrorStatus(st.Message()); ok {
			st = bodySt
		} else if querySt, ok := codec.QueryErrorStatus(st.Message()); ok {
			st = querySt
		}
	}
	httpStatus := apierror.HTTPStatus(st.Code())
	if httpStatus >= 500 {
		reqinfo.SetCause(ctx, err)
	}
	apierror.Write(w, m, httpStatus, st)
}

// statusOf is the client-facing status of err. gRPC statuses pass unchanged
// (the server writes its messages for the caller, and the client library's
// own errors are reworded by upstream.Dial); anything else is an internal error
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
func routingErrorHandler(table *routes.Table) runtime.RoutingErrorHandlerFunc {
	return func(ctx context.Context, mux *runtime.ServeMux, m runtime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
		if httpStatus == http.StatusMethodNotAllowed && table != nil {
			if allowed := table.Allowed(r.URL.Path); len(allowed) > 0 {
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
		reqinfo.SetCause(ctx, fmt.Errorf("routing error with HTTP status %d", httpStatus))
	}
	apierror.Write(w, m, httpStatus, st)
}
