// Command codec-gen is a build step of the gateway, not part of it: it
// writes the gateway's fast codecs from the mdc.v1 descriptors compiled into
// gen/mdcv1 (internal/codecgen says what and why). gateway/build.sh runs it
// right after protoc; go generate in internal/codec runs it too:
//
//	codec-gen GATEWAY_MODULE_DIR
//
// The output is build output, like gen/mdcv1 (.gitignore); codecgen's
// TestGeneratedCodecsAreFresh fails when it differs from what this command
// would write now.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"mdc/gateway/internal/codecgen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: codec-gen GATEWAY_MODULE_DIR")
		os.Exit(2)
	}
	for _, out := range codecgen.Outputs {
		src, err := out.Generate()
		if err == nil {
			err = os.WriteFile(filepath.Join(os.Args[1], out.File), src, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "codec-gen:", out.File+":", err)
			os.Exit(1)
		}
	}
}
