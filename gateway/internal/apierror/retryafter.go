package apierror

import (
	"math"
	"net/http"
	"strconv"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// setRetryAfter sets the Retry-After header (RFC 9110, whole seconds) of an
// error answer from the google.rpc.RetryInfo detail of st, when it has one:
// the server's per-developer rate limit (429, reason RATE_LIMITED) says
// when the call may be sent again. The delay is rounded up, so a client
// that waits that long is not refused again for being early.
func setRetryAfter(h http.Header, st *status.Status) {
	for _, d := range st.Details() {
		info, ok := d.(*errdetails.RetryInfo)
		if !ok || info.GetRetryDelay() == nil {
			continue
		}
		seconds := math.Ceil(info.GetRetryDelay().AsDuration().Seconds())
		if seconds < 0 {
			seconds = 0
		}
		h.Set("Retry-After", strconv.FormatInt(int64(seconds), 10))
		return
	}
}
