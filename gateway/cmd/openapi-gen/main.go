// Command openapi-gen is a build step of the gateway, not part of it:
// build.sh runs it to turn the Swagger 2.0 document protoc-gen-openapiv2
// writes into the OpenAPI 3 document mdc-gateway embeds and serves.
//
//	openapi-gen SWAGGER_V2_JSON OPENAPI_V3_JSON
package main

import (
	"fmt"
	"os"

	"mdc/gateway/internal/openapigen"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: openapi-gen SWAGGER_V2_JSON OPENAPI_V3_JSON")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "openapi-gen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	swagger, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	doc, err := openapigen.Build(swagger, func(msg string) {
		fmt.Fprintln(os.Stderr, "openapi-gen: warning:", msg)
	})
	if err != nil {
		return err
	}
	data, err := openapigen.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
