package gateway

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"time"
)

// Options configure the gateway. The zero value of a field means its default.
type Options struct {
	// HTTPAddr is the address the HTTP server listens on.
	HTTPAddr string
	// GRPCAddr is the address of the mdc gRPC server.
	GRPCAddr string
	// MaxBodyBytes is the largest request body accepted; larger ones get 413.
	MaxBodyBytes int64
	// CallTimeout bounds every forwarded gRPC call.
	CallTimeout time.Duration
	// CORSOrigins are the origins (scheme://host[:port]) browsers may call
	// the API from. Empty: no CORS headers at all.
	CORSOrigins []string
	// ShutdownTimeout bounds the graceful drain on SIGTERM/SIGINT.
	ShutdownTimeout time.Duration
	// Logger receives the access log and lifecycle messages. Default: JSON
	// lines on stderr.
	Logger *slog.Logger
}

// Defaults of Options.
const (
	DefaultHTTPAddr        = "127.0.0.1:8080"
	DefaultGRPCAddr        = "127.0.0.1:50051"
	DefaultMaxBodyBytes    = 4 << 20
	DefaultCallTimeout     = 30 * time.Second
	DefaultShutdownTimeout = 10 * time.Second
)

// withDefaults fills the unset fields of o.
func (o Options) withDefaults() Options {
	if o.HTTPAddr == "" {
		o.HTTPAddr = DefaultHTTPAddr
	}
	if o.GRPCAddr == "" {
		o.GRPCAddr = DefaultGRPCAddr
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewJSONHandler(os.Stderr, nil))
	}
	return o
}

// ParseOptions reads Options from command-line flags (args without the
// program name) and environment variables (through getenv). A flag wins over
// its environment variable, which wins over the default.
//
//	--http-addr       MDC_HTTP_ADDR        default 127.0.0.1:8080
//	--grpc-addr       MDC_GRPC_ADDR        default 127.0.0.1:50051
//	--max-body-bytes  MDC_MAX_BODY_BYTES   default 4194304 (4 MiB)
//	--call-timeout    MDC_CALL_TIMEOUT     default 30s
//	--cors-origins    MDC_CORS_ORIGINS     default empty (no CORS)
func ParseOptions(args []string, getenv func(string) string, stderr io.Writer) (Options, error) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	maxBody, err := strconv.ParseInt(env("MDC_MAX_BODY_BYTES", strconv.Itoa(DefaultMaxBodyBytes)), 10, 64)
	if err != nil {
		return Options{}, fmt.Errorf("MDC_MAX_BODY_BYTES: %w", err)
	}
	callTimeout, err := time.ParseDuration(env("MDC_CALL_TIMEOUT", DefaultCallTimeout.String()))
	if err != nil {
		return Options{}, fmt.Errorf("MDC_CALL_TIMEOUT: %w", err)
	}

	var o Options
	var corsOrigins string
	fs := flag.NewFlagSet("mdc-gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.HTTPAddr, "http-addr", env("MDC_HTTP_ADDR", DefaultHTTPAddr), "HTTP listen address (env MDC_HTTP_ADDR)")
	fs.StringVar(&o.GRPCAddr, "grpc-addr", env("MDC_GRPC_ADDR", DefaultGRPCAddr), "mdc gRPC server address (env MDC_GRPC_ADDR)")
	fs.Int64Var(&o.MaxBodyBytes, "max-body-bytes", maxBody, "largest accepted request body in bytes (env MDC_MAX_BODY_BYTES)")
	fs.DurationVar(&o.CallTimeout, "call-timeout", callTimeout, "deadline of every forwarded gRPC call (env MDC_CALL_TIMEOUT)")
	fs.StringVar(&corsOrigins, "cors-origins", env("MDC_CORS_ORIGINS", ""), "comma-separated origins browsers may call the API from, e.g. https://a.example,http://localhost:5173; empty: no CORS (env MDC_CORS_ORIGINS)")
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.MaxBodyBytes <= 0 {
		return Options{}, fmt.Errorf("--max-body-bytes must be positive, got %d", o.MaxBodyBytes)
	}
	if o.CallTimeout <= 0 {
		return Options{}, fmt.Errorf("--call-timeout must be positive, got %s", o.CallTimeout)
	}
	if o.CORSOrigins, err = ParseOrigins(corsOrigins); err != nil {
		return Options{}, fmt.Errorf("--cors-origins: %w", err)
	}
	return o, nil
}
