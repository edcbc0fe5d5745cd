package codecgen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedCodecsAreFresh regenerates every output and compares it with
// the file the build wrote: a change to codecgen (or a proto) that the build
// has not yet turned into code fails here rather than testing old code.
func TestGeneratedCodecsAreFresh(t *testing.T) {
	for _, out := range Outputs {
		want, err := out.Generate()
		if err != nil {
			t.Fatalf("%s: %v", out.File, err)
		}
		path := filepath.Join("..", "..", out.File)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run gateway/build.sh (or `go generate ./internal/codec`)", path)
		}
	}
}
