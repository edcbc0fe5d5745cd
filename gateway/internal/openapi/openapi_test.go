package openapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	_ "mdc/gateway/gen/mdcv1" // registers the mdc.v1 descriptors
	"mdc/gateway/internal/openapigen"
	"mdc/gateway/internal/rpcpolicy"
)

// op is one operation of the document with the RPC behind it.
type op struct {
	method, path string
	*openapi3.Operation
	rpc protoreflect.MethodDescriptor
}

func (o op) String() string { return o.method + " " + o.path }

// load validates the embedded document (examples included) and lists its
// operations.
func load(t *testing.T) (*openapi3.T, []op) {
	t.Helper()
	doc, err := openapigen.Load(Document)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("openapi = %q, want 3.x", doc.OpenAPI)
	}
	var ops []op
	for path, item := range doc.Paths.Map() {
		for method, operation := range item.Operations() {
			name := openapigen.RPCName(operation.OperationID)
			d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
			if err != nil {
				t.Fatalf("%s %s: operationId %q names no RPC: %v", method, path, operation.OperationID, err)
			}
			ops = append(ops, op{method, path, operation, d.(protoreflect.MethodDescriptor)})
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].String() < ops[j].String() })
	if len(ops) == 0 {
		t.Fatal("no operations")
	}
	return doc, ops
}

func TestSecurityAndErrorResponses(t *testing.T) {
	doc, ops := load(t)
	scheme := doc.Components.SecuritySchemes["bearer"]
	if scheme == nil || scheme.Value.Type != "http" || scheme.Value.Scheme != "bearer" {
		t.Fatalf("no http bearer security scheme: %+v", doc.Components.SecuritySchemes)
	}
	if len(doc.Security) != 0 {
		t.Errorf("document-wide security %v: each operation says its own", doc.Security)
	}
	for _, o := range ops {
		// The RPCs that need no token (docs/api.md section 1, "Auth"), as
		// their (mdc.v1.rpc) access says.
		isPublic := rpcpolicy.Public(o.rpc)
		want := []int{400, 503}
		if o.RequestBody != nil {
			want = append(want, 413)
		}
		if isPublic {
			if o.Security == nil || len(*o.Security) != 0 {
				t.Errorf("%s: security = %v, want none", o, o.Security)
			}
		} else {
			if o.Security == nil || len(*o.Security) != 1 || (*o.Security)[0]["bearer"] == nil {
				t.Errorf("%s: security = %v, want bearer", o, o.Security)
			}
			want = append(want, 401, 429)
		}
		if o.rpc.Parent().Name() == "AdminService" {
			want = append(want, 403)
		}
		for _, status := range want {
			if o.Responses.Status(status) == nil {
				t.Errorf("%s: no %d response", o, status)
			}
		}
		if o.Responses.Default() == nil || o.Responses.Status(200) == nil {
			t.Errorf("%s: no 200 or default response", o)
		}
		for code, r := range o.Responses.Map() {
			if code == "200" || (o.rpc.Parent().Name() == "HealthService" && code == "503") {
				continue
			}
			schema := r.Value.Content.Get("application/json").Schema
			if schema == nil || schema.Ref != "#/components/schemas/Status" {
				t.Errorf("%s: %s response body is not a Status", o, code)
			}
		}
	}
}

// gatewayParameters are the query parameters the gateway itself reads, by
// service: no request message holds them. The exports' `format` chooses the
// file the gateway writes (internal/export), the imports' the file it
// reads.
var gatewayParameters = map[protoreflect.Name]map[string]bool{
	"ExportService": {"format": true},
	"ImportService": {"format": true},
}

// TestParametersFollowTheProto checks every path and query parameter is a
// field of the request message (or one the gateway reads itself, optional),
// required exactly when the field is (google.api.field_behavior) = REQUIRED
// (path parameters always are).
func TestParametersFollowTheProto(t *testing.T) {
	_, ops := load(t)
	for _, o := range ops {
		fields := o.rpc.Input().Fields()
		for _, p := range o.Parameters {
			if p.Value.In == openapi3.ParameterInHeader {
				continue
			}
			if gatewayParameters[o.rpc.Parent().Name()][p.Value.Name] && p.Value.In == openapi3.ParameterInQuery {
				if p.Value.Required {
					t.Errorf("%s: the gateway's parameter %s is required", o, p.Value.Name)
				}
				continue
			}
			fd := fields.ByJSONName(p.Value.Name)
			if fd == nil {
				t.Errorf("%s: parameter %s is no field of %s", o, p.Value.Name, o.rpc.Input().FullName())
				continue
			}
			want := p.Value.In == openapi3.ParameterInPath || isRequired(fd)
			if p.Value.Required != want {
				t.Errorf("%s: parameter %s required = %v, want %v", o, p.Value.Name, p.Value.Required, want)
			}
		}
	}
}

// TestRequiredFieldsFollowTheProto checks the required list of every
// message schema holds the REQUIRED fields of its message (response-only
// schemas also require what is always written, see
// TestResponseFieldsAlwaysPresent), and that the ones the proto marks today
// are there.
func TestRequiredFieldsFollowTheProto(t *testing.T) {
	doc, _ := load(t)
	checked := 0
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(fd protoreflect.FileDescriptor) bool {
		for i := 0; i < fd.Messages().Len(); i++ {
			md := fd.Messages().Get(i)
			ref := doc.Components.Schemas[string(md.Name())]
			if ref == nil {
				continue
			}
			checked++
			var want []string
			for j := 0; j < md.Fields().Len(); j++ {
				if f := md.Fields().Get(j); isRequired(f) {
					want = append(want, f.JSONName())
				}
			}
			for _, f := range want {
				if !slices.Contains(ref.Value.Required, f) {
					t.Errorf("schema %s: %s is REQUIRED in the proto but not in the schema", md.Name(), f)
				}
			}
		}
		return true
	})
	if checked < 30 {
		t.Errorf("only %d message schemas found", checked)
	}
	for schema, field := range map[string]string{"ShortlistData": "entries", "QuotesData": "quotes"} {
		if !slices.Contains(doc.Components.Schemas[schema].Value.Required, field) {
			t.Errorf("%s.%s is not required", schema, field)
		}
	}
}

// TestResponseFieldsAlwaysPresent checks response-only schemas require the
// fields the marshaler always writes, and only those.
func TestResponseFieldsAlwaysPresent(t *testing.T) {
	doc, _ := load(t)
	for schema, want := range map[string][]string{
		"Run":                 []string{"completed", "id", "name", "orderCount", "tags"},
		"Developer":           []string{"id", "role", "username"},
		"HealthCheckResponse": []string{"database", "status", "version"},
		"TradeOutcome":        []string{"stopLossPrice", "targetPrice"},
		"ListRunsResponse":    []string{"nextPageToken", "runs"},
		// Requests use these too: only what the proto marks REQUIRED.
		"ShortlistEntry": protoRequired(t, "mdc.v1.ShortlistEntry"),
		"Holiday":        protoRequired(t, "mdc.v1.Holiday"),
	} {
		got := slices.Clone(doc.Components.Schemas[schema].Value.Required)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: required = %v, want %v", schema, got, want)
		}
	}
}

// protoRequired lists the JSON names of the REQUIRED fields of a message,
// sorted.
func protoRequired(t *testing.T, message protoreflect.FullName) []string {
	t.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(message)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fields := d.(protoreflect.MessageDescriptor).Fields()
	for i := 0; i < fields.Len(); i++ {
		if isRequired(fields.Get(i)) {
			names = append(names, fields.Get(i).JSONName())
		}
	}
	slices.Sort(names)
	return names
}

func isRequired(fd protoreflect.FieldDescriptor) bool {
	behaviors, _ := proto.GetExtension(fd.Options(), annotations.E_FieldBehavior).([]annotations.FieldBehavior)
	return slices.Contains(behaviors, annotations.FieldBehavior_REQUIRED)
}

// TestEnumsListTheirValues checks each enum schema lists the names of its
// proto enum.
func TestEnumsListTheirValues(t *testing.T) {
	doc, _ := load(t)
	for _, name := range []protoreflect.FullName{"mdc.v1.ShortlistType", "mdc.v1.Scope", "mdc.v1.QuoteStatus", "mdc.v1.HealthCheckResponse.ServingStatus"} {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
		if err != nil {
			t.Fatal(err)
		}
		ed := d.(protoreflect.EnumDescriptor)
		var want []any
		for i := 0; i < ed.Values().Len(); i++ {
			want = append(want, string(ed.Values().Get(i).Name()))
		}
		ref := doc.Components.Schemas[string(ed.Name())]
		if ref == nil {
			t.Errorf("no schema %s", ed.Name())
			continue
		}
		if !slices.Equal(ref.Value.Enum, want) {
			t.Errorf("schema %s: enum = %v, want %v", ed.Name(), ref.Value.Enum, want)
		}
	}
}

// TestStringForms checks the forms the protos cannot say: dates, wall
// clocks and the names of string-typed query parameters.
func TestStringForms(t *testing.T) {
	doc, ops := load(t)
	param := func(path, name string) *openapi3.Schema {
		for _, o := range ops {
			if o.path != path || o.method != "GET" {
				continue
			}
			if p := o.Parameters.GetByInAndName(openapi3.ParameterInQuery, name); p != nil {
				return p.Schema.Value
			}
		}
		t.Fatalf("GET %s has no query parameter %s", path, name)
		return nil
	}
	for _, s := range []*openapi3.Schema{
		param("/v1/developer/lists", "datetime"),
		param("/v1/developer/quote-timeline", "startDatetime"),
		param("/v1/developer/quote-timeline", "endDatetime"),
		doc.Components.Schemas["ShortlistData"].Value.Properties["timestamp"].Value,
		doc.Components.Schemas["CreateRunRequest"].Value.Properties["startDatetime"].Value,
	} {
		for value, ok := range map[string]bool{
			"2025-12-31T09:15:00": true, "2025-12-31T23:59:59": true,
			"2025-12-31T24:00:00": false, "2025-13-01T10:00:00": false, "2025-12-31 09:15:00": false,
			"2025-12-31T09:15:00Z": false, "2025-12-31T09:15:00.5": false, "2025-12-31": false,
		} {
			if err := s.VisitJSON(value); (err == nil) != ok {
				t.Errorf("wall clock %q: accepted = %v, want %v (pattern %q)", value, err == nil, ok, s.Pattern)
			}
		}
	}
	for _, s := range []*openapi3.Schema{
		param("/v1/dashboard/candles", "date"),
		doc.Components.Schemas["Holiday"].Value.Properties["date"].Value,
		doc.Components.Schemas["DeleteDataDatesRequest"].Value.Properties["dates"].Value.Items.Value,
	} {
		if s.Format != "date" {
			t.Errorf("date format = %q", s.Format)
		}
	}
	if f := doc.Components.Schemas["Shortlist"].Value.Properties["timestamp"].Value.Format; f != "date-time" {
		t.Errorf("an instant in a response has format %q", f)
	}
	if e := param("/v1/developer/lists", "type").Enum; !slices.Contains(e, any("TOP_GAINERS")) || !slices.Contains(e, any("volume-shockers")) {
		t.Errorf("type enum = %v", e)
	}
	if s := param("/v1/dashboard/daily-persistent-companies", "minPercentage"); s.Min == nil || *s.Min != 0 || s.Max == nil || *s.Max != 100 {
		t.Errorf("minPercentage range = %v..%v", s.Min, s.Max)
	}
	if e := param("/v1/developer/historical-candles", "interval").Enum; len(e) != 12 {
		t.Errorf("interval enum = %v", e)
	}
	for schema, prop := range map[string]string{"CreateDeveloperRequest": "role", "Developer": "role", "RunDbScriptRequest": "script"} {
		if e := doc.Components.Schemas[schema].Value.Properties[prop].Value.Enum; len(e) == 0 {
			t.Errorf("%s.%s has no enum", schema, prop)
		}
	}
}

// TestExamplesValidate checks the seed examples are on their operations
// and fit their schemas; a broken copy must not.
func TestExamplesValidate(t *testing.T) {
	_, ops := load(t)
	found := 0
	for _, o := range ops {
		name := string(o.rpc.Name())
		if name != "SaveShortlist" && name != "SaveNifty" {
			continue
		}
		found++
		media := o.RequestBody.Value.Content.Get("application/json")
		ex := media.Examples["seed"]
		if ex == nil {
			t.Errorf("%s: no seed example", o)
			continue
		}
		if err := media.Schema.Value.VisitJSON(ex.Value.Value); err != nil {
			t.Errorf("%s: example does not fit the schema: %v", o, err)
		}
		broken := map[string]any{"data": map[string]any{"timestamp": 20251231}}
		if media.Schema.Value.VisitJSON(broken) == nil {
			t.Errorf("%s: a body with a numeric timestamp passes the schema", o)
		}
	}
	if found != 2 {
		t.Errorf("found %d of the 2 seed operations", found)
	}
}

// TestDescriptions checks every operation, parameter and schema property
// of the document is described: the generator takes every description from
// the proto comments, so a missing one is a field, message or RPC without a
// comment. A property that is a bare $ref (a message or enum field) cannot
// carry its own description (the conversion to OpenAPI 3 drops siblings of
// $ref), so the schema it refers to must be described instead.
//
// undescribedOK lists the properties internal/openapigen writes without a
// description (not from a proto comment); remove an entry once it has one.
func TestDescriptions(t *testing.T) {
	undescribedOK := map[string]bool{"Status.details": true}
	doc, ops := load(t)
	var bare []string
	for _, o := range ops {
		if o.Summary == "" && o.Description == "" {
			bare = append(bare, fmt.Sprintf("%s: RPC %s", o, o.rpc.FullName()))
		}
		for _, p := range o.Parameters {
			if p.Value.Description == "" {
				bare = append(bare, fmt.Sprintf("%s: %s parameter %s", o, p.Value.In, p.Value.Name))
			}
		}
	}
	properties := 0
	var visit func(where string, s *openapi3.Schema)
	visit = func(where string, s *openapi3.Schema) {
		for _, name := range sortedNames(s.Properties) {
			p := s.Properties[name]
			properties++
			switch {
			case undescribedOK[where+"."+name]:
			case p.Ref != "":
				if p.Value == nil || p.Value.Description == "" {
					bare = append(bare, fmt.Sprintf("schema %s: property %s refers to %s, which has no description", where, name, p.Ref))
				}
			case p.Value.Description == "":
				bare = append(bare, fmt.Sprintf("schema %s: property %s", where, name))
			default:
				visit(where+"."+name, p.Value)
				if items := p.Value.Items; items != nil && items.Ref == "" {
					visit(where+"."+name+"[]", items.Value)
				}
			}
		}
	}
	for _, name := range sortedNames(doc.Components.Schemas) {
		visit(name, doc.Components.Schemas[name].Value)
	}
	if properties < 200 {
		t.Errorf("only %d schema properties found", properties)
	}
	if len(bare) > 0 {
		t.Errorf("%d operations, parameters and properties without a description (write a leading // comment in proto/mdc/v1):\n%s",
			len(bare), strings.Join(bare, "\n"))
	}
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
