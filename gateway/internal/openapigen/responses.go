package openapigen

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// applyResponseRequired marks, in schemas that only responses use, the
// properties every response carries, so a generated client types them as
// always present. The gateway's marshaler emits default values (gateway
// codec/marshaler.go, EmitDefaultValues): every scalar, enum and list is in the
// JSON even when zero or empty. Left out when unset are message fields
// (a $ref to an object, or a Timestamp: format date-time) and proto3
// `optional` fields (nullable). Schemas that requests use too are left
// alone: there every field is optional unless the proto says REQUIRED.
func applyResponseRequired(doc *openapi3.T, ops []operation) {
	schemas := doc.Components.Schemas
	inRequests := map[string]bool{}
	for _, o := range ops {
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			for _, media := range rb.Value.Content {
				markReachable(schemas, media.Schema, inRequests)
			}
		}
	}
	for _, name := range sortedKeys(schemas) {
		s := schemas[name].Value
		if inRequests[name] || name == statusSchema || !s.Type.Is("object") {
			continue
		}
		for _, prop := range sortedKeys(s.Properties) {
			if alwaysEmitted(schemas, s.Properties[prop]) && !slices.Contains(s.Required, prop) {
				s.Required = append(s.Required, prop)
			}
		}
	}
}

// markReachable adds to seen the component schemas ref leads to.
func markReachable(schemas openapi3.Schemas, ref *openapi3.SchemaRef, seen map[string]bool) {
	if ref == nil {
		return
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		if seen[name] {
			return
		}
		seen[name] = true
		ref = schemas[name]
		if ref == nil {
			return
		}
	}
	s := ref.Value
	if s == nil {
		return
	}
	for _, p := range s.Properties {
		markReachable(schemas, p, seen)
	}
	markReachable(schemas, s.Items, seen)
	if s.AdditionalProperties.Schema != nil {
		markReachable(schemas, s.AdditionalProperties.Schema, seen)
	}
}

// alwaysEmitted reports whether the marshaler writes the property even
// when it holds its default value.
func alwaysEmitted(schemas openapi3.Schemas, ref *openapi3.SchemaRef) bool {
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		target := schemas[name]
		// An enum is a value; anything else behind a $ref is a message.
		return target != nil && target.Value != nil && len(target.Value.Enum) > 0
	}
	s := ref.Value
	return s != nil && !s.Nullable && s.Format != "date-time" && !s.Type.Is("object")
}
