package codecgen

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	_ "google.golang.org/protobuf/types/known/timestamppb"
)

// TestUnreadableFieldsFailTheGeneration: a field the scanner cannot read
// exactly as protojson stops the build with its name, rather than being
// declined at run time (every body of that message falling back to
// protojson) or misread.
func TestUnreadableFieldsFailTheGeneration(t *testing.T) {
	opt := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	rep := descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	field := func(name string, n int32, label descriptorpb.FieldDescriptorProto_Label, typ descriptorpb.FieldDescriptorProto_Type, typeName string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(n), Label: label.Enum(), Type: typ.Enum(), JsonName: proto.String(name)}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	oneof := field("in_oneof", 7, opt, descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "")
	oneof.OneofIndex = proto.Int32(0)
	optString := field("opt_string", 8, opt, descriptorpb.FieldDescriptorProto_TYPE_STRING, "")
	optString.Proto3Optional = proto.Bool(true)
	optString.OneofIndex = proto.Int32(1)
	file := &descriptorpb.FileDescriptorProto{
		Name:       proto.String("codecgen_test.proto"),
		Package:    proto.String("mdc.v1.codecgentest"),
		Syntax:     proto.String("proto3"),
		Dependency: []string{"google/protobuf/timestamp.proto"},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("Unreadable"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field("flag", 1, opt, descriptorpb.FieldDescriptorProto_TYPE_BOOL, ""),
				field("count", 2, opt, descriptorpb.FieldDescriptorProto_TYPE_INT64, ""),
				field("names", 3, rep, descriptorpb.FieldDescriptorProto_TYPE_STRING, ""),
				field("at", 4, opt, descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, ".google.protobuf.Timestamp"),
				oneof,
				optString,
			},
			OneofDecl: []*descriptorpb.OneofDescriptorProto{{Name: proto.String("choice")}, {Name: proto.String("_opt_string")}},
		}},
	}
	fd, err := protodesc.NewFile(file, protoregistry.GlobalFiles)
	if err != nil {
		t.Fatal(err)
	}
	fields := fd.Messages().Get(0).Fields()
	want := map[protoreflect.Name]string{
		"flag":       "of kind bool",
		"count":      "of kind int64",
		"names":      "a list of scalars",
		"at":         "a message outside mdc.v1",
		"in_oneof":   "in oneof choice",
		"opt_string": "an optional string",
	}
	g := &fastJSONGen{}
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		_, err := g.read(f)
		if err == nil || !strings.Contains(err.Error(), want[f.Name()]) || !strings.Contains(err.Error(), string(f.FullName())) {
			t.Errorf("%s: %v, want an error naming it and %q", f.Name(), err, want[f.Name()])
		}
	}
	// The export's quote cells: a message of numbers with another field.
	if _, err := doubles(fd.Messages().Get(0), true); err == nil || !strings.Contains(err.Error(), "no column") {
		t.Errorf("doubles: %v, want no column", err)
	}
}
