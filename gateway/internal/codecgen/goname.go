package codecgen

import (
	"fmt"
	"reflect"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The descriptors and Go types the generated code reads and fills.
	_ "mdc/gateway/gen/mdcv1"
)

// The Go names protoc-gen-go gave the messages, fields and enums, read from
// the generated types themselves (their reflect names and `protobuf` struct
// tags) rather than re-derived from the proto names, so a rule of
// protoc-gen-go's naming (Week_52High for week_52_high) never has to be
// copied here.

// genPackage is the Go package protoc-gen-go writes mdc.v1 into, and the
// name the generated code imports it under.
const (
	genPackage = "mdc/gateway/gen/mdcv1"
	genName    = "mdcv1"
)

// goMessage is the Go type name of message md, such as "QuotePayload".
func goMessage(md protoreflect.MessageDescriptor) (string, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		return "", err
	}
	rt := reflect.TypeOf(mt.Zero().Interface()).Elem()
	if rt.PkgPath() != genPackage {
		return "", fmt.Errorf("%s: Go type in %s, want %s", md.FullName(), rt.PkgPath(), genPackage)
	}
	return rt.Name(), nil
}

// goEnum is the Go type name of enum ed; its name-to-number map is
// <name>_value.
func goEnum(ed protoreflect.EnumDescriptor) (string, error) {
	et, err := protoregistry.GlobalTypes.FindEnumByName(ed.FullName())
	if err != nil {
		return "", err
	}
	rt := reflect.TypeOf(et.New(0))
	if rt.PkgPath() != genPackage {
		return "", fmt.Errorf("%s: Go type in %s, want %s", ed.FullName(), rt.PkgPath(), genPackage)
	}
	return rt.Name(), nil
}

// goFields maps the proto names of md's fields to their Go struct field
// names, from the `protobuf:"...,name=<proto name>,..."` tags.
func goFields(md protoreflect.MessageDescriptor) (map[protoreflect.Name]string, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		return nil, err
	}
	rt := reflect.TypeOf(mt.Zero().Interface()).Elem()
	names := map[protoreflect.Name]string{}
	for i := range rt.NumField() {
		sf := rt.Field(i)
		for part := range strings.SplitSeq(sf.Tag.Get("protobuf"), ",") {
			if name, ok := strings.CutPrefix(part, "name="); ok {
				names[protoreflect.Name(name)] = sf.Name
			}
		}
	}
	return names, nil
}
