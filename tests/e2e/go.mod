module mdc/tests/e2e

go 1.26.0

require (
	go.yaml.in/yaml/v3 v3.0.5
	google.golang.org/grpc v1.85.0
)

require google.golang.org/genproto/googleapis/api v0.0.0-20261019180522-ce908d29299b // indirect

require (
	github.com/mdc-project/mdc/clients/go v0.0.0
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261019180522-ce908d29299b
	google.golang.org/protobuf v1.36.12
)

replace github.com/mdc-project/mdc/clients/go => ../../clients/go
