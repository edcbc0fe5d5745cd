// Package openapigen turns the Swagger 2.0 document protoc-gen-openapiv2
// writes from proto/mdc/v1 into the OpenAPI 3 document the gateway serves.
//
// The generator knows the protos' messages, routes, enums, comments and
// (google.api.field_behavior) = REQUIRED, but not the method options it has
// no notion of. This package reads those from the descriptors: who may call
// each RPC, how the backtest clock applies, the error statuses it answers
// (its (mdc.v1.rpc) option: contract.go, errors.go, security.go,
// headers.go), whether it may be sent again (idempotency_level:
// idempotency.go) and whether it streams (streams.go). It adds the rest
// from tables that tests keep in step with the protos: the forms of strings
// (strings.go), the bounds of numbers (limits.go, numbers.go), the fields
// every response carries (responses.go) and the seed contract's example
// bodies (examples.go).
package openapigen

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"

	"mdc/gateway/internal/rpcpolicy"
)

// Build converts the protoc-gen-openapiv2 document swagger to the served
// OpenAPI 3 document, and checks the result is a valid one. It fails,
// naming the RPC, on an operation whose RPC lacks an option the document is
// made from (rpcpolicy.Check). warn receives what the build tolerates but a
// test refuses (a string field without a known form, an example that no
// longer fits its schema), so a small slip does not break everyone's build.
func Build(swagger []byte, warn func(string)) (*openapi3.T, error) {
	var v2 openapi2.T
	if err := json.Unmarshal(swagger, &v2); err != nil {
		return nil, fmt.Errorf("read the Swagger 2.0 document: %w", err)
	}
	doc, err := openapi2conv.ToV3(&v2)
	if err != nil {
		return nil, fmt.Errorf("convert to OpenAPI 3: %w", err)
	}
	ops, err := operations(doc)
	if err != nil {
		return nil, err
	}
	tidy(doc, ops)
	applyStatusSchema(doc)
	applySecurity(doc, ops)
	applyErrors(doc, ops)
	// Before the passes that read request bodies: an import's is a file.
	applyImports(doc, ops)
	applyHeaders(doc, ops)
	applyStringForms(doc, ops, warn)
	applyLimits(doc, warn)
	applyQueryListLimits(ops)
	applyNumberRanges(ops)
	applyResponseRequired(doc, ops)
	applyStreams(ops)
	applyExports(ops)
	applyIdempotency(ops, warn)
	applyRequestNullable(doc, ops)
	applyFileBodies(ops)
	if err := applyExamples(ops, warn); err != nil {
		return nil, err
	}
	if err := checkRequired(doc); err != nil {
		return nil, err
	}
	// The document built here holds references without their targets:
	// written out and loaded again, it is what clients see.
	out, err := Marshal(doc)
	if err != nil {
		return nil, err
	}
	loaded, err := Load(out)
	if err != nil {
		// An example that no longer fits its schema (a field renamed in the
		// proto) must not stop the build: the document goes out without
		// examples and TestExamplesValidate fails.
		warn(fmt.Sprintf("dropping the example bodies: %v", err))
		dropExamples(ops)
		if out, err = Marshal(doc); err != nil {
			return nil, err
		}
		return Load(out)
	}
	return loaded, nil
}

// Load reads an OpenAPI 3 document, resolves its references and validates
// it, examples included.
func Load(data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load the OpenAPI document: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not valid: %w", err)
	}
	return doc, nil
}

// Marshal renders doc as indented JSON (stable: maps are written sorted).
func Marshal(doc *openapi3.T) ([]byte, error) {
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// operation is one HTTP operation of the document with the RPC it calls.
type operation struct {
	method, path string
	op           *openapi3.Operation
	rpc          string // full name, e.g. mdc.v1.AdminService.GetDeveloper
	contract     rpcContract
}

// operations lists the operations of doc in path and method order, each
// with the contract its RPC's options give. An operation whose RPC is not
// in the descriptors or lacks an option is an error naming both.
func operations(doc *openapi3.T) ([]operation, error) {
	var ops []operation
	paths := doc.Paths.Map()
	for _, path := range sortedKeys(paths) {
		methods := paths[path].Operations()
		for _, m := range sortedKeys(methods) {
			op := methods[m]
			rpc := RPCName(op.OperationID)
			c, err := contractOf(rpc)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", m, path, err)
			}
			ops = append(ops, operation{method: m, path: path, op: op, rpc: rpc, contract: c})
		}
	}
	return ops, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// bindingSuffix is the number protoc-gen-openapiv2 appends to the
// operationId of an additional binding (HealthService_Check2).
var bindingSuffix = regexp.MustCompile(`[0-9]+$`)

// RPCName is the full name of the RPC behind an operationId of the form
// Service_Method (mdc.v1.Service.Method).
func RPCName(operationID string) string {
	service, method, _ := strings.Cut(operationID, "_")
	name := rpcpolicy.Package + "." + service + "." + method
	if _, err := rpcpolicy.Lookup(name); err != nil {
		name = rpcpolicy.Package + "." + service + "." + bindingSuffix.ReplaceAllString(method, "")
	}
	return name
}

// tidy drops what the conversion leaves behind that clients have no use
// for and makes summaries one line.
func tidy(doc *openapi3.T, ops []operation) {
	doc.OpenAPI = "3.0.3"
	for _, o := range ops {
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			delete(rb.Value.Extensions, "x-originalParamName")
			rb.Extensions = nil
			if o.contract.bodyOptional {
				rb.Value.Required = false
			}
		}
		splitSummary(o.op)
	}
}

// splitSummary keeps the first sentence of a multi-sentence or multi-line
// summary as the summary (the line Swagger UI shows beside the route) and
// moves the whole comment to the description.
func splitSummary(op *openapi3.Operation) {
	text := strings.Join(strings.Fields(op.Summary), " ")
	if text == "" {
		return
	}
	first := text
	if i := strings.Index(text, ". "); i >= 0 {
		first = text[:i+1]
	}
	op.Summary = first
	if first == text {
		return
	}
	if op.Description == "" {
		op.Description = text
	} else {
		op.Description = text + "\n\n" + op.Description
	}
}

// checkRequired fails on a schema that requires a property it does not
// have (a REQUIRED path parameter field left in a body's required list),
// and un-marks required properties as nullable: null is "absent" to
// protobuf JSON, which a required field must not be.
func checkRequired(doc *openapi3.T) error {
	for _, name := range sortedKeys(doc.Components.Schemas) {
		s := doc.Components.Schemas[name].Value
		for _, req := range s.Required {
			p, ok := s.Properties[req]
			if !ok {
				return fmt.Errorf("schema %s requires %q, which it does not have", name, req)
			}
			if p.Value != nil && p.Ref == "" {
				p.Value.Nullable = false
			}
		}
	}
	return nil
}
