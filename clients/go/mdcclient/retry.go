package mdcclient

import (
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
)

// RetryDelay reports how long the server asks the caller to wait before
// sending a failed call again: the google.rpc.RetryInfo of the error's
// status. The server's per-developer rate limit refuses a call with
// codes.ResourceExhausted, reason RATE_LIMITED and a RetryInfo, before doing
// anything, so such a call (a create too) may be sent again once the delay
// has passed. ok is false when err carries no RetryInfo (a nil error, a
// failed sign-in, any other error).
func RetryDelay(err error) (delay time.Duration, ok bool) {
	st, isStatus := status.FromError(err)
	if err == nil || !isStatus {
		return 0, false
	}
	for _, d := range st.Details() {
		if info, isInfo := d.(*errdetails.RetryInfo); isInfo && info.GetRetryDelay() != nil {
			return info.GetRetryDelay().AsDuration(), true
		}
	}
	return 0, false
}
