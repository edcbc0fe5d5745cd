package apierror

import (
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Violation is one bad field of a request, by the JSON path the client
// wrote (data.entries[2].price), a parameter or a header name.
type Violation struct {
	Field, Description string
}

// ViolationsStatus is the INVALID_ARGUMENT status listing vs, in the
// message and as google.rpc.BadRequest field violations.
func ViolationsStatus(vs []Violation) *status.Status {
	msgs := make([]string, len(vs))
	br := &errdetails.BadRequest{}
	for i, v := range vs {
		msgs[i] = v.Field + ": " + v.Description
		br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{
			Field:       v.Field,
			Description: v.Description,
		})
	}
	st := status.New(codes.InvalidArgument, strings.Join(msgs, "; "))
	if withDetails, err := st.WithDetails(br); err == nil {
		return withDetails
	}
	return st
}

// SanitizeUTF8 replaces the bytes of s that are not UTF-8, so s can go into
// an error message (protobuf refuses to marshal invalid UTF-8).
func SanitizeUTF8(s string) string {
	return strings.ToValidUTF8(s, "\uFFFD")
}
