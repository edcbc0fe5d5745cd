package codecgen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedCodecsAreFresh regenerates every output and compares it with
// the committed file: a proto change that alters a generated codec fails
// here until `go generate ./internal/codec` is run and its output committed.
func TestGeneratedCodecsAreFresh(t *testing.T) {
	for _, out := range Outputs {
		want, err := out.Generate()
		if err != nil {
			t.Fatalf("%s: %v", out.File, err)
		}
		path := filepath.Join("..", "codec", out.File)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go generate ./internal/codec` in gateway/ and commit it", path)
		}
	}
}
