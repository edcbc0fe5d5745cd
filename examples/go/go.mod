module github.com/mdc-project/mdc/examples/go

go 1.26.0

require (
	github.com/mdc-project/mdc/clients/go v0.0.0
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261019180522-ce908d29299b
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20261019180522-ce908d29299b // indirect
)

// The client module of this checkout; without it, `go` would fetch the
// published github.com/mdc-project/mdc/clients/go.
replace github.com/mdc-project/mdc/clients/go => ../../clients/go
