package codecgen

// Output is one generated file: its path in the gateway module and what
// writes it. The files are build output (.gitignore): gateway/build.sh runs
// codec-gen right after protoc, as they are read from gen/mdcv1.
type Output struct {
	File     string
	Generate func() ([]byte, error)
}

// Outputs are every file codec-gen writes.
var Outputs = []Output{
	{File: "internal/codec/fastjson_gen.go", Generate: FastJSON},
	{File: "internal/export/quote_wire_gen.go", Generate: QuoteWire},
}
