package openapigen

import "github.com/getkin/kin-openapi/openapi3"

// The request headers the gateway forwards to the server (the gateway's
// gateway/headers.go), as reusable parameters.
const (
	clockHeader = "X-Current-Timestamp"
	zoneHeader  = "X-Current-Timezone"
	runIDHeader = "X-Run-Id"
	// Printable ASCII, blanks included: what a gRPC metadata value holds.
	printableASCIIPattern = `^[ -~]*$`
)

// headerParameters are the component parameters of those headers, by name.
func headerParameters() openapi3.ParametersMap {
	header := func(name, desc string, schema *openapi3.Schema) *openapi3.ParameterRef {
		return &openapi3.ParameterRef{Value: openapi3.NewHeaderParameter(name).WithDescription(desc).WithSchema(schema)}
	}
	return openapi3.ParametersMap{
		clockHeader: header(clockHeader,
			"The backtest clock: \"now\" for this request, a wall-clock time YYYY-MM-DDTHH:MM:SS in X-Current-Timezone. "+
				"Data stamped at or after it is never returned; see docs/api.md section 9.3. Empty: no clock. Malformed: 400.",
			openapi3.NewStringSchema().WithPattern(optionalWallClockPattern)),
		zoneHeader: header(zoneHeader,
			"The zone of X-Current-Timestamp: an IANA name (any case) or a fixed offset +HH:MM / -HH:MM; default Asia/Kolkata. Malformed: 400.",
			openapi3.NewStringSchema().WithPattern(timeZonePattern)),
		runIDHeader: header(runIDHeader,
			"A caller's run id, logged with the request (first 128 characters); it changes nothing else. "+
				"Printable ASCII (gRPC metadata carries nothing else); another byte: 400.",
			openapi3.NewStringSchema().WithPattern(printableASCIIPattern)),
	}
}

// applyHeaders declares the forwarded headers and lists them on the
// operations they matter to: the clock headers where the clock changes the
// answer, X-Run-Id on every operation that needs a token.
func applyHeaders(doc *openapi3.T, ops []operation) {
	doc.Components.Parameters = headerParameters()
	ref := func(name string) *openapi3.ParameterRef {
		return &openapi3.ParameterRef{Ref: "#/components/parameters/" + name}
	}
	for _, o := range ops {
		if o.contract.clock != clockIgnored {
			o.op.Parameters = append(o.op.Parameters, ref(clockHeader), ref(zoneHeader))
		}
		if o.contract.access != public {
			o.op.Parameters = append(o.op.Parameters, ref(runIDHeader))
		}
	}
}
