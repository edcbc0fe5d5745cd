module mdc/bench/asof_history

go 1.26.0

require (
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
	mdc/gateway v0.0.0
)

require (
	github.com/grpc-ecosystem/grpc-gateway/v2 v2.32.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/genproto/googleapis/api v0.0.0-20261019180522-ce908d29299b // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261019180522-ce908d29299b // indirect
)

// The generated mdc.v1 Go code lives in the gateway module (gateway/gen,
// produced by gateway/build.sh).
replace mdc/gateway => ../../gateway
