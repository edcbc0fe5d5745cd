package openapigen

import "github.com/getkin/kin-openapi/openapi3"

// Component schema names of the error body.
const (
	statusSchema     = "Status"
	badRequestSchema = "BadRequest"
	errorInfoSchema  = "ErrorInfo"
	retryInfoSchema  = "RetryInfo"
)

// Type URLs of the details the server and the gateway put in an error
// (domain/error_reason.h, the gateway's codec/decodeerror.go): no others occur.
const (
	badRequestType = "type.googleapis.com/google.rpc.BadRequest"
	errorInfoType  = "type.googleapis.com/google.rpc.ErrorInfo"
	retryInfoType  = "type.googleapis.com/google.rpc.RetryInfo"
)

func schemaRef(name string) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
}

// described returns s with desc as its description, as an inline ref.
func described(s *openapi3.Schema, desc string) *openapi3.SchemaRef {
	s.Description = desc
	return openapi3.NewSchemaRef("", s)
}

// applyStatusSchema replaces the generated google.rpc.Status schema (whose
// details are google.protobuf.Any: "an object with @type") by the error body
// the gateway writes: code, message and details always present, each detail
// a google.rpc.BadRequest, a google.rpc.ErrorInfo or a google.rpc.RetryInfo
// told apart by @type.
func applyStatusSchema(doc *openapi3.T) {
	schemas := doc.Components.Schemas
	str := func(desc string) *openapi3.SchemaRef {
		return described(openapi3.NewStringSchema(), desc)
	}
	typeURL := func(url string) *openapi3.SchemaRef {
		return described(openapi3.NewStringSchema().WithEnum(url), "The detail's type.")
	}

	violation := openapi3.NewObjectSchema().
		WithPropertyRef("field", str("The bad field by the JSON path the client wrote, e.g. data.entries[2].price, or a parameter or header name.")).
		WithPropertyRef("description", str("What is wrong with it and what the rule is.")).
		WithPropertyRef("reason", str("Empty today.")).
		WithRequired([]string{"field", "description"})
	badRequest := openapi3.NewObjectSchema().
		WithPropertyRef("@type", typeURL(badRequestType)).
		WithPropertyRef("fieldViolations", described(openapi3.NewArraySchema().WithItems(violation), "Every bad field of the request.")).
		WithRequired([]string{"@type", "fieldViolations"})
	badRequest.Description = "google.rpc.BadRequest: the fields of the request that break a rule."
	schemas[badRequestSchema] = openapi3.NewSchemaRef("", badRequest)

	errorInfo := openapi3.NewObjectSchema().
		WithPropertyRef("@type", typeURL(errorInfoType)).
		WithPropertyRef("reason", str("The condition, UPPER_SNAKE_CASE, e.g. FUTURE_READ, LAST_ADMIN, USERNAME_TAKEN, SIGN_IN_THROTTLED.")).
		WithPropertyRef("domain", str("Always mdc.v1.")).
		WithPropertyRef("metadata", described(openapi3.NewObjectSchema().WithAdditionalProperties(openapi3.NewStringSchema()),
			"Facts about the condition, e.g. field and backtestClock for FUTURE_READ.")).
		WithRequired([]string{"@type", "reason", "domain"})
	errorInfo.Description = "google.rpc.ErrorInfo: a machine-readable reason that tells apart errors sharing an HTTP status."
	schemas[errorInfoSchema] = openapi3.NewSchemaRef("", errorInfo)

	retryInfo := openapi3.NewObjectSchema().
		WithPropertyRef("@type", typeURL(retryInfoType)).
		WithPropertyRef("retryDelay", str("How long to wait before sending the call again, as a google.protobuf.Duration in JSON, e.g. \"0.200s\"; "+
			"the answer's Retry-After header carries it in whole seconds, rounded up.")).
		WithRequired([]string{"@type", "retryDelay"})
	retryInfo.Description = "google.rpc.RetryInfo: when a refused call may be sent again (reason RATE_LIMITED)."
	schemas[retryInfoSchema] = openapi3.NewSchemaRef("", retryInfo)

	detail := &openapi3.Schema{
		OneOf: openapi3.SchemaRefs{schemaRef(badRequestSchema), schemaRef(errorInfoSchema), schemaRef(retryInfoSchema)},
		Discriminator: &openapi3.Discriminator{
			PropertyName: "@type",
			Mapping: map[string]openapi3.MappingRef{
				badRequestType: {Ref: "#/components/schemas/" + badRequestSchema},
				errorInfoType:  {Ref: "#/components/schemas/" + errorInfoSchema},
				retryInfoType:  {Ref: "#/components/schemas/" + retryInfoSchema},
			},
		},
	}
	status := openapi3.NewObjectSchema().
		WithPropertyRef("code", described(openapi3.NewInt32Schema(),
			"The gRPC status code (3 INVALID_ARGUMENT, 5 NOT_FOUND, ...); the HTTP status follows from it (docs/api.md section 1).")).
		WithPropertyRef("message", str("What went wrong, written for the caller; for field problems the violations as `field: description; ...`.")).
		WithPropertyRef("details", openapi3.NewSchemaRef("", openapi3.NewArraySchema().WithItems(detail))).
		WithRequired([]string{"code", "message", "details"})
	status.Description = "The error body of every error (google.rpc.Status as JSON)."
	schemas[statusSchema] = openapi3.NewSchemaRef("", status)

	// The generated Status was the only user of google.protobuf.Any.
	delete(schemas, "Any")
}
