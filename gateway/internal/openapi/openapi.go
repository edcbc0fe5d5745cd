// Package openapi holds the merged OpenAPI v2 document of the mdc API.
//
// build.sh generates mdc.swagger.json from proto/mdc/v1/*.proto with
// protoc-gen-openapiv2 (allow_merge=true); it is not committed, so this
// package only compiles after build.sh has run.
package openapi

import _ "embed"

// Document is the OpenAPI v2 (Swagger) JSON document served at /openapi.json.
//
//go:embed mdc.swagger.json
var Document []byte
