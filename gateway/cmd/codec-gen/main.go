// Command codec-gen writes the gateway's generated fast codecs from the
// mdc.v1 descriptors compiled into gen/mdcv1 (internal/codecgen says what
// and why). go generate in internal/codec runs it from there:
//
//	cd gateway/internal/codec && go generate
//
// The output is committed; codecgen's TestGeneratedCodecsAreFresh fails
// when it differs from what this command would write.
package main

import (
	"fmt"
	"os"

	"mdc/gateway/internal/codecgen"
)

func main() {
	if len(os.Args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: codec-gen (run in gateway/internal/codec, as go generate does)")
		os.Exit(2)
	}
	for _, out := range codecgen.Outputs {
		src, err := out.Generate()
		if err == nil {
			err = os.WriteFile(out.File, src, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "codec-gen:", out.File+":", err)
			os.Exit(1)
		}
	}
}
