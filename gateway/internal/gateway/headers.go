package gateway

import (
	"strings"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	"mdc/gateway/internal/observe"
)

// forwardedHeaders are the mdc request headers passed to the server as gRPC
// metadata under these keys (docs/api.md, "Backtest clock"), and the
// request id.
var forwardedHeaders = map[string]string{
	"X-Current-Timestamp":   "x-current-timestamp",
	"X-Current-Timezone":    "x-current-timezone",
	"X-Run-Id":              "x-run-id",
	observe.RequestIDHeader: "x-request-id", // always set, by observe.Requests
}

// incomingHeader maps an HTTP request header (canonical form) to the gRPC
// metadata key it is forwarded as.
//
// grpc-gateway itself forwards Authorization as "authorization" and the
// client address as "x-forwarded-for" (any X-Forwarded-For the client sent,
// then the address of the peer the gateway saw, last). Besides the headers
// above, permanent HTTP headers go as "grpcgateway-<name>" (grpc-gateway's
// default), except Authorization, which is not sent a second time.
// grpc-gateway's "Grpc-Metadata-<name>" passthrough is off: clients cannot
// set arbitrary metadata.
func incomingHeader(key string) (string, bool) {
	if md, ok := forwardedHeaders[key]; ok {
		return md, true
	}
	if key == "Authorization" || strings.HasPrefix(key, runtime.MetadataHeaderPrefix) {
		return "", false
	}
	return runtime.DefaultHeaderMatcher(key)
}
