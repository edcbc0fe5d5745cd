// Package apierror writes the gateway's error answers, every one of them a
// google.rpc.Status JSON body (docs/api.md, Conventions): the HTTP status
// of each gRPC code and back, field violations as google.rpc.BadRequest,
// Retry-After from a google.rpc.RetryInfo, the answer to a refused body.
package apierror

import (
	"net/http"

	"google.golang.org/grpc/codes"
)

// HTTPStatus is the HTTP status of a gRPC code (docs/api.md, "Errors"):
// the one mapping of the gateway's answers and of the error responses the
// OpenAPI document lists for each RPC's error cases.
func HTTPStatus(c codes.Code) int {
	switch c {
	case codes.OK:
		return http.StatusOK
	case codes.InvalidArgument, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.FailedPrecondition:
		return http.StatusPreconditionFailed
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	case codes.Canceled:
		return 499 // Client Closed Request
	default:
		return http.StatusInternalServerError
	}
}

// CodeOf is the gRPC code of an error answer the gateway gives with an HTTP
// status of its own (a static file's 404, net/http's 400 of a malformed
// request), for its google.rpc.Status body.
func CodeOf(httpStatus int) codes.Code {
	switch httpStatus {
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusMethodNotAllowed, http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return codes.Unimplemented
	case http.StatusPreconditionFailed, http.StatusExpectationFailed:
		return codes.FailedPrecondition
	case http.StatusRequestedRangeNotSatisfiable:
		return codes.OutOfRange
	case http.StatusRequestTimeout:
		return codes.DeadlineExceeded
	}
	if httpStatus >= 500 {
		return codes.Internal
	}
	return codes.InvalidArgument
}
