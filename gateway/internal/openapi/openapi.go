// Package openapi holds the OpenAPI 3 document of the mdc API.
//
// build.sh generates openapi.json from proto/mdc/v1/*.proto: protoc-gen-openapiv2
// writes a Swagger 2.0 document, which cmd/openapi-gen converts and completes
// (internal/openapigen). It is not committed, so this package only compiles
// after build.sh has run.
package openapi

import _ "embed"

// Document is the OpenAPI 3 JSON document served at /openapi.json.
//
//go:embed openapi.json
var Document []byte
