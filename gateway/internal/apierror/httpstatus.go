// Package apierror writes the gateway's error answers: the google.rpc.Status
// JSON body with the HTTP status of its gRPC code.
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
