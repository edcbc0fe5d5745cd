package mdcclient

// The error helper: what a failed call's gRPC status carries, taken out of
// its google.rpc details once (docs/api.md section 9.1, "Error body" and
// "Error reasons"), so callers branch on fields instead of digging through
// errdetails themselves:
//
//	_, err := developer.GetList(ctx, req)
//	if e := mdcclient.ErrorOf(err); e != nil && e.Reason == mdcclient.ReasonFutureRead {
//		// asked for an instant at or after the backtest clock
//	}

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The reasons of docs/api.md ("Error reasons"): the google.rpc.ErrorInfo
// reason, stable once published, that tells apart errors sharing a code.
// New ones may be added; treat an unknown reason as none.
const (
	// PermissionDenied: a read asks for an instant (or a date) at or after
	// the backtest clock. Metadata: "field", "backtestClock".
	ReasonFutureRead = "FUTURE_READ"
	// AlreadyExists: another developer has the username.
	ReasonUsernameTaken = "USERNAME_TAKEN"
	// AlreadyExists: a date is already in the holiday calendar. Metadata:
	// "dates".
	ReasonHolidayExists = "HOLIDAY_EXISTS"
	// FailedPrecondition: deleting the last admin.
	ReasonLastAdmin = "LAST_ADMIN"
	// FailedPrecondition: broker credentials need MDC_SECRET_KEY, which the
	// server lacks.
	ReasonSecretKeyNotConfigured = "SECRET_KEY_NOT_CONFIGURED"
	// ResourceExhausted: sign-in refused, the client's address sent too many
	// unknown tokens this minute. Carries a RetryInfo.
	ReasonSignInThrottled = "SIGN_IN_THROTTLED"
	// ResourceExhausted: as ReasonSignInThrottled, on another route. Carries
	// a RetryInfo.
	ReasonAuthThrottled = "AUTH_THROTTLED"
	// ResourceExhausted: over the caller's rate limit; nothing was done.
	// Carries a RetryInfo. Metadata: "limit".
	ReasonRateLimited = "RATE_LIMITED"
	// ResourceExhausted: a watch ended because its reader was too slow.
	// Metadata: "cursor".
	ReasonWatcherFellBehind = "WATCHER_FELL_BEHIND"
	// Unavailable: a database statement ran past the statement timeout and
	// was rolled back; sending the call again later is safe.
	ReasonDatabaseTimeout = "DATABASE_TIMEOUT"
	// Unavailable: the write was committed on the primary database but its
	// synchronous standby never confirmed its copy, so it might not survive
	// a failover; send it again (collector writes are idempotent).
	ReasonCommitUnconfirmed = "COMMIT_UNCONFIRMED"
	// FailedPrecondition: no broker is configured; retrying does not help
	// until an admin configures one.
	ReasonBrokerNotConfigured = "BROKER_NOT_CONFIGURED"
	// Unavailable: the broker's token endpoint failed; worth retrying later.
	ReasonBrokerUnavailable = "BROKER_UNAVAILABLE"
)

// FieldViolation is one bad field of a request (google.rpc.BadRequest).
type FieldViolation struct {
	// Field is the path in the JSON names clients write, with [i] for list
	// items: "data.entries[2].price", "datetime".
	Field string
	// Description says which rule the value breaks.
	Description string
}

// Error is a failed call's gRPC status with its details taken out. It
// implements error and GRPCStatus, so status.Code and status.Convert work on
// it as on the original error.
type Error struct {
	Code    codes.Code
	Message string
	// Reason is the google.rpc.ErrorInfo reason (the Reason* constants), ""
	// when the error has none; Domain is its domain ("mdc.v1") and Metadata
	// its metadata (nil when none).
	Reason   string
	Domain   string
	Metadata map[string]string
	// FieldViolations lists every bad field of the request (a
	// google.rpc.BadRequest), in the server's order; nil when none.
	FieldViolations []FieldViolation
	// RetryDelay is how long the server asks the caller to wait before
	// sending the call again (google.rpc.RetryInfo), when HasRetryDelay.
	RetryDelay    time.Duration
	HasRetryDelay bool

	status *status.Status
}

// ErrorOf returns what err carries as an *Error: its gRPC status (also when
// err wraps one, as fmt.Errorf's %w does: Message is then the server's
// message, without the wrapping text), or for another error the code a
// context error maps to (Canceled, DeadlineExceeded) or Unknown, with err's
// text as the message. ErrorOf(nil) is nil.
func ErrorOf(err error) *Error {
	if err == nil {
		return nil
	}
	var st *status.Status
	var carrier interface{ GRPCStatus() *status.Status }
	switch {
	case errors.As(err, &carrier) && carrier.GRPCStatus() != nil:
		st = carrier.GRPCStatus()
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		st = status.FromContextError(err)
	default:
		st = status.New(codes.Unknown, err.Error())
	}
	e := &Error{Code: st.Code(), Message: st.Message(), status: st}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			e.Reason, e.Domain, e.Metadata = d.GetReason(), d.GetDomain(), d.GetMetadata()
		case *errdetails.BadRequest:
			for _, v := range d.GetFieldViolations() {
				e.FieldViolations = append(e.FieldViolations, FieldViolation{Field: v.GetField(), Description: v.GetDescription()})
			}
		case *errdetails.RetryInfo:
			if d.GetRetryDelay() != nil {
				e.RetryDelay, e.HasRetryDelay = max(0, d.GetRetryDelay().AsDuration()), true
			}
		}
	}
	return e
}

// Error is the code, the message and the reason: "PermissionDenied: datetime
// ... (FUTURE_READ)".
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Code, e.Message)
	if e.Reason != "" {
		fmt.Fprintf(&b, " (%s)", e.Reason)
	}
	return b.String()
}

// GRPCStatus is the status the error was made from (for an Error made by
// hand, its Code and Message).
func (e *Error) GRPCStatus() *status.Status {
	if e.status == nil {
		return status.New(e.Code, e.Message)
	}
	return e.status
}

// Violation is the description of the bad field named field (as
// FieldViolation.Field spells it); ok is false when that field is not among
// the violations.
func (e *Error) Violation(field string) (description string, ok bool) {
	for _, v := range e.FieldViolations {
		if v.Field == field {
			return v.Description, true
		}
	}
	return "", false
}

// RetryDelay reports how long the server asks the caller to wait before
// sending a failed call again: the google.rpc.RetryInfo of the error's
// status (ErrorOf(err).RetryDelay). The server's per-developer rate limit
// refuses a call with codes.ResourceExhausted, reason RATE_LIMITED and a
// RetryInfo, before doing anything, so such a call (a create too) may be
// sent again once the delay has passed. ok is false when err carries no
// RetryInfo (a nil error, a failed sign-in, any other error).
func RetryDelay(err error) (delay time.Duration, ok bool) {
	e := ErrorOf(err)
	if e == nil || !e.HasRetryDelay {
		return 0, false
	}
	return e.RetryDelay, true
}
