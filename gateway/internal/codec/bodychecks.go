package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The descriptors checked below are registered by the generated code.
	_ "mdc/gateway/gen/mdcv1"
	"mdc/gateway/internal/apierror"
	"mdc/gateway/internal/rpcpolicy"
)

// bodyChecks are the request body rules protojson cannot enforce, as
// precomputed check trees per message type. A type that is not a key of a
// checkSet has nothing to check and pays nothing.
type bodyChecks struct {
	// required: repeated fields annotated (google.api.field_behavior) =
	// REQUIRED must be present and not null. proto3 cannot tell an absent
	// list from an empty one, so only the JSON shows it.
	required checkSet
	// enums: enum fields given as a string must name a value of the enum.
	// protojson with DiscardUnknown silently drops unknown names instead.
	enums checkSet
	// numbers: fields the contract documents as JSON numbers (double,
	// float, 32-bit integers) must not be given as strings. protojson reads
	// "12.5" for a double; the API does not (docs/api.md, Conventions). The
	// 64-bit integers stay as protojson reads them, numbers or strings.
	numbers checkSet
}

// maxViolations caps the field violations reported for one body.
const maxViolations = 50

// mdcBodyChecks builds the checks for every message of package mdc.v1.
func mdcBodyChecks() bodyChecks {
	var msgs []protoreflect.MessageDescriptor
	protoregistry.GlobalFiles.RangeFilesByPackage("mdc.v1", func(fd protoreflect.FileDescriptor) bool {
		msgs = appendMessages(msgs, fd.Messages())
		return true
	})
	required := buildCheckSet(msgs, func(fd protoreflect.FieldDescriptor, f *checkField) {
		f.required = fd.IsList() && isRequired(fd)
	})
	// The admin RPCs' lists are checked by the server after the caller's
	// role (an absent list and an empty one are refused alike there).
	for name := range rpcpolicy.AdminInputs() {
		delete(required, name)
	}
	return bodyChecks{
		required: required,
		enums: buildCheckSet(msgs, func(fd protoreflect.FieldDescriptor, f *checkField) {
			if ed := fd.Enum(); ed != nil && ed.FullName() != "google.protobuf.NullValue" {
				f.enum = ed
				f.enumHint = enumHint(ed)
			}
		}),
		numbers: buildCheckSet(msgs, func(fd protoreflect.FieldDescriptor, f *checkField) {
			f.number = isJSONNumber(fd)
		}),
	}
}

// isJSONNumber reports whether protojson writes fd's values as JSON numbers.
func isJSONNumber(fd protoreflect.FieldDescriptor) bool {
	switch fd.Kind() {
	case protoreflect.DoubleKind, protoreflect.FloatKind,
		protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return true
	}
	return false
}

func appendMessages(out []protoreflect.MessageDescriptor, mds protoreflect.MessageDescriptors) []protoreflect.MessageDescriptor {
	for i := 0; i < mds.Len(); i++ {
		md := mds.Get(i)
		if !md.IsMapEntry() {
			out = append(out, md)
			out = appendMessages(out, md.Messages())
		}
	}
	return out
}

func isRequired(fd protoreflect.FieldDescriptor) bool {
	behaviors, _ := proto.GetExtension(fd.Options(), annotations.E_FieldBehavior).([]annotations.FieldBehavior)
	return slices.Contains(behaviors, annotations.FieldBehavior_REQUIRED)
}

// enumHint lists the names a client may use, leaving out the zero
// XXX_UNSPECIFIED value.
func enumHint(ed protoreflect.EnumDescriptor) string {
	var names []string
	values := ed.Values()
	for i := 0; i < values.Len(); i++ {
		v := values.Get(i)
		if v.Number() == 0 && strings.HasSuffix(string(v.Name()), "_UNSPECIFIED") {
			continue
		}
		names = append(names, string(v.Name()))
	}
	return strings.Join(names, ", ")
}

// checkSet maps a message type to the check tree of its JSON form.
type checkSet map[protoreflect.FullName]*checkNode

// checkNode lists the fields of one message type that are checked, or lead
// to checked fields.
type checkNode struct {
	fields []checkField
}

type checkField struct {
	fd                  protoreflect.FieldDescriptor
	jsonName, protoName string // protojson accepts either spelling
	list                bool
	required            bool                        // must be present, not null
	number              bool                        // must be a JSON number, not a string
	enum                protoreflect.EnumDescriptor // string values must name one of its values
	enumHint            string                      // the names, for the message
	child               *checkNode                  // checks inside the field's message
}

// buildCheckSet builds the check trees of msgs; mark decides what is checked
// on each field.
func buildCheckSet(msgs []protoreflect.MessageDescriptor, mark func(protoreflect.FieldDescriptor, *checkField)) checkSet {
	b := &checkBuilder{mark: mark, memo: map[protoreflect.FullName]*checkNode{}}
	set := checkSet{}
	for _, md := range msgs {
		if n := b.node(md); n != nil {
			set[md.FullName()] = n
		}
	}
	return set
}

type checkBuilder struct {
	mark func(protoreflect.FieldDescriptor, *checkField)
	memo map[protoreflect.FullName]*checkNode
}

// node returns the check tree of md, nil when nothing in it is checked.
// Map fields and well-known types (their JSON is not an object of fields)
// are not descended into; neither is a message type that contains itself
// (mdc.v1 has none).
func (b *checkBuilder) node(md protoreflect.MessageDescriptor) *checkNode {
	if n, ok := b.memo[md.FullName()]; ok {
		return n
	}
	b.memo[md.FullName()] = nil // in progress: a cycle sees "nothing to check"
	var n checkNode
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if fd.IsMap() {
			continue
		}
		f := checkField{fd: fd, jsonName: fd.JSONName(), protoName: string(fd.Name()), list: fd.IsList()}
		b.mark(fd, &f)
		if sub := fd.Message(); sub != nil && !strings.HasPrefix(string(sub.FullName()), "google.protobuf.") {
			f.child = b.node(sub)
		}
		if f.required || f.number || f.enum != nil || f.child != nil {
			n.fields = append(n.fields, f)
		}
	}
	if len(n.fields) == 0 {
		return nil
	}
	b.memo[md.FullName()] = &n
	return &n
}

// check returns the violations of the JSON body data decoded as message
// type name. data must already have been accepted by protojson.
func (s checkSet) check(name protoreflect.FullName, data []byte) []apierror.Violation {
	n := s[name]
	if n == nil {
		return nil
	}
	var vs []apierror.Violation
	n.check(data, "", &vs)
	return vs
}

// checkDecoded is check for a body protojson decoded into msg without error.
// The JSON is only parsed again when msg cannot settle the rules: a required
// list that holds elements was present and not null, so a body whose
// required lists all have elements (the common case) costs no second parse.
func (s checkSet) checkDecoded(msg protoreflect.Message, data []byte) []apierror.Violation {
	n := s[msg.Descriptor().FullName()]
	if n == nil || n.settledBy(msg) {
		return nil
	}
	return s.check(msg.Descriptor().FullName(), data)
}

// settledBy reports whether the decoded message m proves the JSON it came
// from passes every check of n: each required list under n holds elements.
// An empty required list (present as [], or absent or null: only the JSON
// tells) or an enum check (the names are only in the JSON) settles nothing.
func (n *checkNode) settledBy(m protoreflect.Message) bool {
	for i := range n.fields {
		f := &n.fields[i]
		if f.enum != nil {
			return false
		}
		if f.list {
			l := m.Get(f.fd).List()
			if f.required && l.Len() == 0 {
				return false
			}
			if f.child != nil {
				for j := 0; j < l.Len(); j++ {
					if !f.child.settledBy(l.Get(j).Message()) {
						return false
					}
				}
			}
			continue
		}
		// An unset message was absent or null in the JSON: nothing under it
		// is checked there either.
		if f.child != nil && m.Has(f.fd) && !f.child.settledBy(m.Get(f.fd).Message()) {
			return false
		}
	}
	return true
}

func (n *checkNode) check(raw json.RawMessage, path string, vs *[]apierror.Violation) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return // null (an unset message) or not an object: nothing to check
	}
	for i := range n.fields {
		f := &n.fields[i]
		v, ok := obj[f.jsonName]
		if !ok {
			v, ok = obj[f.protoName]
		}
		fpath := joinPath(path, f.jsonName)
		if !ok || isNull(v) {
			if f.required {
				addViolation(vs, fpath, "is required")
			}
			continue
		}
		if !f.list {
			f.checkValue(v, fpath, vs)
			continue
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(v, &elems); err != nil {
			continue
		}
		for j, e := range elems {
			f.checkValue(e, fmt.Sprintf("%s[%d]", fpath, j), vs)
		}
	}
}

func (f *checkField) checkValue(v json.RawMessage, path string, vs *[]apierror.Violation) {
	if f.number && len(v) > 0 && v[0] == '"' {
		addViolation(vs, path, "must be a JSON number, not a string")
	}
	if f.enum != nil {
		var name string
		// Numbers are left to the server (proto3 enums are open).
		if json.Unmarshal(v, &name) == nil && f.enum.Values().ByName(protoreflect.Name(name)) == nil {
			addViolation(vs, path, fmt.Sprintf("unknown value %q; expected one of %s", name, f.enumHint))
		}
	}
	if f.child != nil {
		f.child.check(v, path, vs)
	}
}

func addViolation(vs *[]apierror.Violation, field, description string) {
	if len(*vs) < maxViolations {
		*vs = append(*vs, apierror.Violation{Field: field, Description: description})
	}
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func isNull(v json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}
