package openapigen

import (
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

// The statuses every RPC of a kind can answer, by rule (docs/api.md section
// 1 and 9.1; service/calls/call_runner.cc runs every RPC through the same
// steps: token, X-Current-* headers, then the RPC's own checks).
const (
	badRequest = "A parameter or body field breaks its rule (a google.rpc.BadRequest detail names every bad field by its JSON name), " +
		"the body is not JSON or has a value of the wrong JSON type, or the X-Current-Timestamp, X-Current-Timezone or X-Run-Id header is malformed."
	unauthenticated = "The Authorization header is missing or malformed, or the token is unknown or revoked. The answer carries `WWW-Authenticate: Bearer`."
	adminOnly       = "A developer token on an admin route."
	futureRead      = "The request asks for an instant at or after the backtest clock (X-Current-Timestamp): " +
		"`datetime`, `start_datetime`, or the start of the day of `date`. The google.rpc.ErrorInfo reason is FUTURE_READ."
	tooLarge    = "The body is larger than the gateway's limit (MDC_MAX_BODY_BYTES, 4 MiB by default); it was not read."
	busy        = "The server has no free database connection; retry later."
	rateLimited = "The caller is over its per-developer rate limit (MDC_RATE_LIMIT_READS or MDC_RATE_LIMIT_WRITES; off unless the server sets them): " +
		"nothing was done; the google.rpc.ErrorInfo reason is RATE_LIMITED, a google.rpc.RetryInfo gives the wait and `Retry-After` the same in whole seconds. Or: "
	unavailable = "The server cannot reach the database or is shutting down, or the gateway cannot reach the server; retry later."
	otherError  = "Any other error, with the same body: 500 internal error (no internal detail is ever shown), " +
		"504 when the call outlived the gateway's deadline (MDC_CALL_TIMEOUT), 409 when a write met a conflicting concurrent one (retry)."
	healthDown = "The server cannot reach the database (`status` NOT_SERVING, `database` unreachable), " +
		"or the gateway cannot reach the server (a google.rpc.Status body)."
)

// errorStatuses returns the HTTP error statuses o can answer and when.
func errorStatuses(o operation) map[int]string {
	s := map[int]string{400: badRequest, 503: unavailable}
	if o.op.RequestBody != nil {
		s[413] = tooLarge
	}
	if o.contract.access != public {
		s[401] = unauthenticated
		s[429] = busy
	}
	if o.contract.access == developerToken {
		s[429] = rateLimited + busy
	}
	switch {
	case o.contract.access == adminToken && o.contract.clock == clockForbids:
		s[403] = adminOnly + " Or: " + futureRead
	case o.contract.access == adminToken:
		s[403] = adminOnly
	case o.contract.clock == clockForbids:
		s[403] = futureRead
	}
	for status, when := range o.contract.errors {
		s[status] = when
	}
	return s
}

// applyErrors replaces the generated catch-all error response of every
// operation with one response per status it can answer, each with the
// google.rpc.Status body, and a default for the rest.
func applyErrors(doc *openapi3.T, ops []operation) {
	for _, o := range ops {
		responses := o.op.Responses
		responses.Delete("default")
		for status, when := range errorStatuses(o) {
			responses.Set(strconv.Itoa(status), errorResponse(status, when))
		}
		responses.Set("default", &openapi3.ResponseRef{Value: openapi3.NewResponse().
			WithDescription(otherError).WithJSONSchemaRef(schemaRef(statusSchema))})
		if o.rpc == "mdc.v1.HealthService.Check" {
			applyHealthResponses(o, responses)
		}
		if ok := responses.Value("200"); ok != nil && ok.Value != nil {
			ok.Value.WithDescription("OK.")
		}
	}
}

func errorResponse(status int, when string) *openapi3.ResponseRef {
	r := openapi3.NewResponse().WithDescription(when).WithJSONSchemaRef(schemaRef(statusSchema))
	if status == 429 {
		r.Headers = openapi3.Headers{"Retry-After": &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
			Description: "Whole seconds to wait before sending the call again, when the rate limit refused it (reason RATE_LIMITED).",
			Schema:      openapi3.NewSchemaRef("", openapi3.NewIntegerSchema().WithMin(0)),
		}}}}
	}
	if status == 401 {
		r.Headers = openapi3.Headers{"WWW-Authenticate": &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{
			Description: "Always `Bearer`.",
			Schema:      openapi3.NewSchemaRef("", openapi3.NewStringSchema().WithEnum("Bearer")),
		}}}}
	}
	return &openapi3.ResponseRef{Value: r}
}

// applyHealthResponses: while the database is down the health check answers
// 503 with the health body itself (the gateway's upstream/health.go), not an error body.
func applyHealthResponses(o operation, responses *openapi3.Responses) {
	health := responses.Value("200").Value.Content.Get("application/json").Schema
	// anyOf, not oneOf: a Status body would also pass as a health body
	// (no field of either is required of the other).
	either := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{health, schemaRef(statusSchema)}}
	responses.Set("503", &openapi3.ResponseRef{Value: openapi3.NewResponse().
		WithDescription(healthDown).WithJSONSchema(either)})
}
