package codecgen

// Output is one generated file: its path relative to internal/codec,
// where go generate runs codec-gen, and what writes it.
type Output struct {
	File     string
	Generate func() ([]byte, error)
}

// Outputs are every file codec-gen writes.
var Outputs = []Output{
	{File: "fastjson_gen.go", Generate: FastJSON},
}
