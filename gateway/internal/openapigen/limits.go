package openapigen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// limit is what the server checks of one request property beyond its type
// and form (docs/api.md section 9; domain/*_requests.cc): the bounds a
// generated request must keep to be accepted.
type limit struct {
	minLength, maxLength uint64 // strings; 0: no bound
	pattern              string // strings, or the items of a list of strings
	minItems, maxItems   uint64 // lists; 0: no bound
	uniqueItems          bool
	positive             bool // numbers: > 0
	nonNegative          bool // numbers: >= 0
	whole                bool // numbers: a whole number (type integer)
	// min, max: inclusive bounds of a number, set after positive and
	// nonNegative; nil: none.
	min, max *float64
	// omitEnum: a $ref to an enum becomes an inline copy without this
	// value (the UNSPECIFIED zero value of a required enum field, which
	// the server refuses as "is required").
	omitEnum string
	// enumNumbers: the enum also takes these numbers, as protobuf JSON
	// reads an enum (its value numbers; 0 is UNSPECIFIED).
	enumNumbers []int
	// dbScriptArgs: the arguments object of RunDbScript (only `before`).
	dbScriptArgs bool
}

// runName: "at most 200 bytes, no control or format characters". maxLength counts
// characters, not bytes: the schema says 200, and a name of 200 characters
// that needs more than 200 bytes is one it cannot refuse.
var runName = limit{maxLength: 200, pattern: noControlPattern}

// runTags: each tag 1-50 of [A-Za-z0-9_-] (surrounding blanks are trimmed
// by the server); at most 10 distinct ones, which a schema cannot count, in
// a list of at most 100.
var runTags = limit{pattern: tagPattern, maxItems: 100}

// maxMagnitude is domain/number_limits.h kMaxMagnitude: no number a
// client sends is larger in magnitude (prices, payload numbers,
// dayChangePerc), so what is computed from them stays finite.
const maxMagnitude = 1e15

// magnitude: a number from -1e15 to 1e15.
var magnitude = limit{min: bound(-maxMagnitude), max: bound(maxMagnitude)}

// orderPrice: domain/number_limits.h kMinOrderPrice to kMaxMagnitude.
var orderPrice = limit{min: bound(0.000001), max: bound(maxMagnitude)}

// dateList: the admin deletes take 1-366 distinct dates.
var dateList = limit{minItems: 1, maxItems: 366, uniqueItems: true}

// propertyLimits are the limits by component schema and property. A renamed
// field or message is reported (the build goes on without its limit). The
// property "*" stands for every inline number property of the schema not
// named on its own.
var propertyLimits = map[string]map[string]limit{
	"SignInRequest":               {"developerToken": {minLength: 1, maxLength: 512}},
	"SetBrokerCredentialsRequest": {"apiKey": {pattern: printablePattern, maxLength: 4096}, "apiSecret": {pattern: printablePattern, maxLength: 4096}},
	"DeleteDataDatesRequest":      {"dates": dateList},
	"DeleteHolidaysRequest":       {"dates": dateList},
	"QuotesData":                  {"quotes": {minItems: 1, maxItems: 1000}},
	// domain/observations.h: kMaxShortlistEntries, kMaxDepthLevels.
	"Depth":                 {"buy": {maxItems: 200}, "sell": {maxItems: 200}},
	"CreateHolidaysRequest": {"holidays": {maxItems: 366}, "dates": {pattern: calendarDatePattern, maxItems: 366}},
	"CreateOrderBody":       {"entryPrice": orderPrice, "stopLossPrice": orderPrice, "takeProfitPrice": orderPrice},
	"CreateRunRequest":      {"name": runName, "tags": runTags},
	"RunUpdate":             {"name": runName, "tags": runTags},
	"Holiday":               {"name": {maxLength: 100, pattern: noControlPattern}, "date": {pattern: calendarDatePattern}},
	"ShortlistEntry":        {"price": {nonNegative: true, max: bound(maxMagnitude)}, "name": {maxLength: 256, pattern: noControlPattern}},
	"NiftyData":             {"dayChangePerc": magnitude},
	// domain/corporate_action_entry.cc: 0 for the numbers a kind does not
	// use, positive for the others, at most 1e15.
	"CreateCorporateActionRequest": {"*": {nonNegative: true, max: bound(maxMagnitude)}},
	"Ohlc":                         {"*": magnitude},
	"DepthLevel":                   {"*": magnitude},
	// Epoch milliseconds: a whole number >= 0 (domain/observations.cc).
	"QuotePayload": {"last_trade_time": {whole: true, nonNegative: true, max: bound(maxMagnitude)}, "*": magnitude},
	// The UNSPECIFIED value of a required enum is refused as "is required".
	"ShortlistData":      {"shortlistType": {omitEnum: "SHORTLIST_TYPE_UNSPECIFIED", enumNumbers: []int{1, 2}}, "scope": {enumNumbers: []int{0, 1, 2}}, "entries": {maxItems: 1000}},
	"QuoteData":          {"status": {omitEnum: "QUOTE_STATUS_UNSPECIFIED", enumNumbers: []int{1, 2}}},
	"RunDbScriptRequest": {"args": {dbScriptArgs: true}},
}

// queryListLimits are the most items of the list query parameters, by name
// (domain/stream_requests.h: kMaxStreamSymbols, kMaxReplayKinds).
var queryListLimits = map[string]limit{
	"symbols": {maxItems: 1000},
	"kinds":   {maxItems: 3},
}

// applyQueryListLimits sets queryListLimits on the operations' query
// parameters that are lists.
func applyQueryListLimits(ops []operation) {
	for _, o := range ops {
		for _, p := range o.op.Parameters {
			if p.Value == nil || p.Value.In != openapi3.ParameterInQuery || p.Value.Schema == nil || p.Value.Schema.Value == nil {
				continue
			}
			if l, ok := queryListLimits[p.Value.Name]; ok && p.Value.Schema.Value.Type.Is("array") {
				maxItems := l.maxItems
				p.Value.Schema.Value.MaxItems = &maxItems
			}
		}
	}
}

// applyLimits sets propertyLimits.
func applyLimits(doc *openapi3.T, warn func(string)) {
	for _, name := range sortedKeys(propertyLimits) {
		ref, ok := doc.Components.Schemas[name]
		if !ok || ref.Value == nil {
			warn("internal/openapigen/limits.go: no schema " + name)
			continue
		}
		for _, prop := range sortedKeys(propertyLimits[name]) {
			l := propertyLimits[name][prop]
			if prop == "*" {
				if !applyToNumbers(ref.Value, propertyLimits[name], l) {
					warn("internal/openapigen/limits.go: schema " + name + " has no number property for \"*\"")
				}
				continue
			}
			p, ok := ref.Value.Properties[prop]
			if ok && (l.omitEnum != "" || l.enumNumbers != nil) {
				if l.omitEnum != "" {
					if p = withoutEnumValue(doc, p, l.omitEnum); p == nil {
						warn(fmt.Sprintf("internal/openapigen/limits.go: %s.%s is no enum with %s", name, prop, l.omitEnum))
						continue
					}
				}
				if l.enumNumbers != nil {
					numbers := openapi3.NewIntegerSchema()
					for _, n := range l.enumNumbers {
						numbers.Enum = append(numbers.Enum, n)
					}
					p = openapi3.NewSchemaRef("", &openapi3.Schema{
						AnyOf:       openapi3.SchemaRefs{p, openapi3.NewSchemaRef("", numbers)},
						Description: descriptionOf(doc, p) + " Protobuf JSON also takes the enum's numbers.",
					})
				}
				ref.Value.Properties[prop] = p
				continue
			}
			if !ok || p.Value == nil || p.Ref != "" {
				warn(fmt.Sprintf("internal/openapigen/limits.go: schema %s has no inline property %q", name, prop))
				continue
			}
			l.apply(p.Value)
		}
	}
}

// applyToNumbers applies l to every inline number property of s that named
// has no limit of its own for; false when there is none.
func applyToNumbers(s *openapi3.Schema, named map[string]limit, l limit) bool {
	applied := false
	for prop, p := range s.Properties {
		if _, own := named[prop]; own || p.Ref != "" || p.Value == nil {
			continue
		}
		if p.Value.Type.Is("number") || p.Value.Type.Is("integer") {
			l.apply(p.Value)
			applied = true
		}
	}
	return applied
}

// withoutEnumValue is an inline copy of the enum schema ref points to,
// without value; nil when ref is no such enum.
func withoutEnumValue(doc *openapi3.T, ref *openapi3.SchemaRef, value string) *openapi3.SchemaRef {
	name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/")
	target := doc.Components.Schemas[name]
	if !ok || target == nil || target.Value == nil || !slices.Contains(target.Value.Enum, any(value)) {
		return nil
	}
	s := *target.Value
	s.Enum = slices.DeleteFunc(slices.Clone(s.Enum), func(v any) bool { return v == value })
	s.Default = nil
	return openapi3.NewSchemaRef("", &s)
}

func (l limit) apply(s *openapi3.Schema) {
	if l.dbScriptArgs {
		// docs/api.md section 9.5, "DB scripts": only purge-before takes an
		// argument, `before`; any other name is 400 args.<name>.
		before := openapi3.NewStringSchema()
		before.Format = "date"
		before.Description = "purge-before only (and required there): the first trading day kept."
		s.Properties = openapi3.Schemas{"before": openapi3.NewSchemaRef("", before)}
		no := false
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: &no}
		return
	}
	if s.Type.Is("array") {
		s.MinItems = l.minItems
		if l.maxItems > 0 {
			s.MaxItems = openapi3.Uint64Ptr(l.maxItems)
		}
		s.UniqueItems = l.uniqueItems
		if l.pattern != "" && s.Items != nil && s.Items.Value != nil && s.Items.Value.Type.Is("string") {
			s.Items.Value.Pattern = l.pattern
		}
		return
	}
	if s.Type.Is("string") {
		s.MinLength = l.minLength
		if l.maxLength > 0 {
			s.MaxLength = openapi3.Uint64Ptr(l.maxLength)
		}
		if l.pattern != "" {
			s.Pattern = l.pattern
		}
		return
	}
	if l.whole && s.Type.Is("number") {
		s.Type = &openapi3.Types{"integer"}
		s.Format = "" // any size: the server reads a double
	}
	if (l.positive || l.nonNegative) && (s.Type.Is("number") || s.Type.Is("integer")) {
		s.Min = openapi3.Float64Ptr(0)
		if l.positive {
			s.WithExclusiveMin(true)
		}
	}
	if s.Type.Is("number") || s.Type.Is("integer") {
		if l.min != nil {
			s.Min = l.min
		}
		if l.max != nil {
			s.Max = l.max
		}
	}
}

// applyRequestNullable marks the optional properties of the schemas that
// requests use as nullable: to protobuf JSON, null is the same as absent
// (a required one stays refused: "is required").
func applyRequestNullable(doc *openapi3.T, ops []operation) {
	schemas := doc.Components.Schemas
	inRequests := map[string]bool{}
	for _, o := range ops {
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			for _, media := range rb.Value.Content {
				markReachable(schemas, media.Schema, inRequests)
			}
		}
	}
	for _, name := range sortedKeys(inRequests) {
		ref := schemas[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		for prop, p := range ref.Value.Properties {
			switch {
			case slices.Contains(ref.Value.Required, prop):
			case p.Ref != "":
				// A $ref cannot carry nullable in OpenAPI 3.0: wrap it.
				ref.Value.Properties[prop] = openapi3.NewSchemaRef("", &openapi3.Schema{
					AllOf: openapi3.SchemaRefs{p}, Nullable: true, Description: descriptionOf(doc, p),
				})
			case p.Value != nil:
				p.Value.Nullable = true
			}
		}
	}
}

// descriptionOf is the description of the schema ref is or points to.
func descriptionOf(doc *openapi3.T, ref *openapi3.SchemaRef) string {
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		if target := doc.Components.Schemas[name]; target != nil && target.Value != nil {
			return target.Value.Description
		}
		return ""
	}
	if ref.Value == nil {
		return ""
	}
	return ref.Value.Description
}
