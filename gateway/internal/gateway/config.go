package gateway

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/transport"
	"mdc/gateway/internal/upstream"
)

// Options configure the gateway. The zero value of a field means its default.
type Options struct {
	// HTTPAddr is the address the HTTP server listens on.
	HTTPAddr string
	// GRPCAddr names the mdc gRPC servers: one address (a DNS name standing
	// for every address it resolves to), or a comma-separated list of
	// host:port (upstream/servers.go).
	GRPCAddr string
	// MaxBodyBytes is the largest request body accepted; larger ones get 413.
	MaxBodyBytes int64
	// MaxBodyBytesInFlight bounds the request body bytes held at once by
	// all requests together; a request that cannot get its share within a
	// second gets 503.
	MaxBodyBytesInFlight int64
	// CallTimeout bounds every forwarded gRPC call.
	CallTimeout time.Duration
	// ExportWriteTimeout is how long an export's download may make no
	// progress, its client reading nothing, before the gateway ends it and
	// frees what it held (MDC_EXPORT_WRITE_TIMEOUT).
	ExportWriteTimeout time.Duration
	// ImportMaxBytes is the largest file an import route takes (its body
	// is streamed, not held: MaxBodyBytes does not apply to it); a Parquet
	// file is spooled to a temporary file of at most this size
	// (MDC_IMPORT_MAX_BYTES).
	ImportMaxBytes int64
	// CORSOrigins are the origins (scheme://host[:port]) browsers may call
	// the API from. Empty: no CORS headers at all.
	CORSOrigins []string
	// ShutdownTimeout bounds the graceful drain on SIGTERM/SIGINT.
	ShutdownTimeout time.Duration
	// LogLevel is the least severe level logged by the default Logger
	// (MDC_LOG_LEVEL: debug, info, warn, error). Zero: info.
	LogLevel slog.Level
	// NoAccessLog turns off the per-request log line (MDC_ACCESS_LOG=off).
	// Answers with a 5xx status are logged at error level regardless.
	NoAccessLog bool
	// Logger receives the access log and lifecycle messages. Default: JSON
	// lines on stderr at LogLevel (see NewLogger).
	Logger *slog.Logger
	// TLSCertFile and TLSKeyFile (PEM; MDC_TLS_CERT, MDC_TLS_KEY): both set,
	// the gateway serves HTTPS only; neither, plain HTTP (transport/tls.go).
	TLSCertFile, TLSKeyFile string
	// GRPCTLSCAFile (PEM; MDC_GRPC_TLS_CA): the CA certificates the gRPC
	// server's certificate is verified against; set, the gateway dials the
	// server with TLS, else in plaintext. GRPCTLSServerName
	// (MDC_GRPC_TLS_SERVER_NAME) is the name that certificate must carry,
	// by default the host of each server's address.
	GRPCTLSCAFile, GRPCTLSServerName string
	// MetricsAddr is where Prometheus /metrics is served, on a listener of
	// its own (MDC_GATEWAY_METRICS_ADDR). Empty: no metrics.
	MetricsAddr string
	// StreamsPerConnection is how many streaming calls (watches, replays)
	// one of the gateway's stream connections carries at most
	// (MDC_GATEWAY_STREAMS_PER_CONNECTION; upstream/streampool.go); keep it below
	// the servers' MDC_MAX_THREADS/2.
	StreamsPerConnection int
	// TrustedProxies are the proxies in front of the gateway (a load
	// balancer) whose X-Forwarded-For names the client
	// (MDC_GATEWAY_TRUSTED_PROXIES; transport/clientaddr.go). Empty: none.
	TrustedProxies []netip.Prefix
	// HeavyReads is how many heavy reads (cross-sections, candles of many
	// symbols, coverage) the gateway forwards at once; more wait their turn
	// for at most CallTimeout (MDC_GATEWAY_HEAVY_READS;
	// transport/heavyreads.go). Zero: DefaultHeavyReads; negative: no limit.
	HeavyReads int

	// metrics records the requests when set (by Run, for MetricsAddr).
	metrics *observe.Metrics
	// uploadRate is the rate a request body must keep; zero: the default
	// (tests shorten it).
	uploadRate transport.UploadRate
}

// Defaults of Options.
const (
	DefaultHTTPAddr     = "127.0.0.1:8080"
	DefaultGRPCAddr     = "127.0.0.1:50051"
	DefaultMaxBodyBytes = 4 << 20
	// DefaultMaxBodyBytesInFlight is 64 MiB.
	DefaultMaxBodyBytesInFlight = 64 << 20
	DefaultCallTimeout          = 30 * time.Second
	DefaultExportWriteTimeout   = 60 * time.Second
	// DefaultImportMaxBytes is 4 GiB: a month of every NSE symbol's quotes
	// as CSV is about 3 GiB (docs/operations.md, "Import").
	DefaultImportMaxBytes = 4 << 30
	// DefaultHeavyReads: one 1,000-quote answer decoded and written as JSON
	// at a time keeps one of two cores for everything else
	// (docs/performance.md, "Read/write isolation").
	DefaultHeavyReads      = 1
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
	if o.MaxBodyBytesInFlight <= 0 {
		o.MaxBodyBytesInFlight = DefaultMaxBodyBytesInFlight
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.ExportWriteTimeout <= 0 {
		o.ExportWriteTimeout = DefaultExportWriteTimeout
	}
	if o.ImportMaxBytes <= 0 {
		o.ImportMaxBytes = DefaultImportMaxBytes
	}
	if o.HeavyReads == 0 {
		o.HeavyReads = DefaultHeavyReads
	}

	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.StreamsPerConnection <= 0 {
		o.StreamsPerConnection = upstream.DefaultStreamsPerConnection
	}
	if o.uploadRate == (transport.UploadRate{}) {
		o.uploadRate = transport.DefaultUploadRate
	}
	if o.Logger == nil {
		o.Logger = observe.NewLogger(os.Stderr, o.LogLevel)
	}
	return o
}

// parseSwitch reads an on/off setting.
func parseSwitch(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "true", "1", "yes":
		return true, nil
	case "off", "false", "0", "no":
		return false, nil
	}
	return false, fmt.Errorf("invalid value %q: want on or off", s)
}

// ErrVersion is what ParseOptions returns for --version: the caller prints
// its version and exits 0.
var ErrVersion = errors.New("version requested")

// ParseOptions reads Options from command-line flags (args without the
// program name) and environment variables (through getenv). A flag wins over
// its environment variable, which wins over the default.
//
//	--http-addr       MDC_HTTP_ADDR        default 127.0.0.1:8080
//	--grpc-addr       MDC_GRPC_ADDR        default 127.0.0.1:50051 (or host:port,host:port,...)
//	--max-body-bytes  MDC_MAX_BODY_BYTES   default 4194304 (4 MiB)
//	--max-body-bytes-in-flight  MDC_MAX_BODY_BYTES_IN_FLIGHT  default 67108864 (64 MiB)
//	--call-timeout    MDC_CALL_TIMEOUT     default 30s
//	--export-write-timeout  MDC_EXPORT_WRITE_TIMEOUT  default 1m0s
//	--import-max-bytes  MDC_IMPORT_MAX_BYTES  default 4294967296 (4 GiB)
//	--cors-origins    MDC_CORS_ORIGINS     default empty (no CORS)
//	--log-level       MDC_LOG_LEVEL        default info (debug, info, warn, error)
//	--access-log      MDC_ACCESS_LOG       default on (on, off)
//	--tls-cert, --tls-key  MDC_TLS_CERT, MDC_TLS_KEY  default empty (plain HTTP)
//	--grpc-tls-ca     MDC_GRPC_TLS_CA      default empty (plaintext gRPC)
//	--grpc-tls-server-name  MDC_GRPC_TLS_SERVER_NAME  default the host of each server's address
//	--metrics-addr    MDC_GATEWAY_METRICS_ADDR  default empty (no metrics)
//	--streams-per-connection  MDC_GATEWAY_STREAMS_PER_CONNECTION  default 32 (1-511)
//	--trusted-proxies MDC_GATEWAY_TRUSTED_PROXIES  default empty (no proxy in front)
//	--heavy-reads     MDC_GATEWAY_HEAVY_READS  default 1 (0: no limit; 0-1024)
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
	maxInFlight, err := strconv.ParseInt(env("MDC_MAX_BODY_BYTES_IN_FLIGHT", strconv.Itoa(DefaultMaxBodyBytesInFlight)), 10, 64)
	if err != nil {
		return Options{}, fmt.Errorf("MDC_MAX_BODY_BYTES_IN_FLIGHT: %w", err)
	}
	callTimeout, err := time.ParseDuration(env("MDC_CALL_TIMEOUT", DefaultCallTimeout.String()))
	if err != nil {
		return Options{}, fmt.Errorf("MDC_CALL_TIMEOUT: %w", err)
	}
	exportWriteTimeout, err := time.ParseDuration(env("MDC_EXPORT_WRITE_TIMEOUT", DefaultExportWriteTimeout.String()))
	if err != nil {
		return Options{}, fmt.Errorf("MDC_EXPORT_WRITE_TIMEOUT: %w", err)
	}
	importMaxBytes, err := strconv.ParseInt(env("MDC_IMPORT_MAX_BYTES", strconv.Itoa(DefaultImportMaxBytes)), 10, 64)
	if err != nil {
		return Options{}, fmt.Errorf("MDC_IMPORT_MAX_BYTES: %w", err)
	}
	streamsPerConn, err := strconv.Atoi(env("MDC_GATEWAY_STREAMS_PER_CONNECTION", strconv.Itoa(upstream.DefaultStreamsPerConnection)))
	if err != nil {
		return Options{}, fmt.Errorf("MDC_GATEWAY_STREAMS_PER_CONNECTION: want a whole number from 1 to %d: %w", upstream.MaxStreamsPerConnection, err)
	}

	heavyReads, err := strconv.Atoi(env("MDC_GATEWAY_HEAVY_READS", strconv.Itoa(DefaultHeavyReads)))
	if err != nil {
		return Options{}, fmt.Errorf("MDC_GATEWAY_HEAVY_READS: want a whole number from 0 to 1024: %w", err)
	}

	var o Options
	var corsOrigins, logLevel, accessLog, trustedProxies string
	fs := flag.NewFlagSet("mdc-gateway", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.HTTPAddr, "http-addr", env("MDC_HTTP_ADDR", DefaultHTTPAddr), "HTTP listen address (env MDC_HTTP_ADDR)")
	fs.StringVar(&o.GRPCAddr, "grpc-addr", env("MDC_GRPC_ADDR", DefaultGRPCAddr), "mdc gRPC server address, a DNS name of several, or a comma-separated list host:port,host:port; calls are balanced over the healthy ones (env MDC_GRPC_ADDR)")
	fs.Int64Var(&o.MaxBodyBytes, "max-body-bytes", maxBody, "largest accepted request body in bytes (env MDC_MAX_BODY_BYTES)")
	fs.Int64Var(&o.MaxBodyBytesInFlight, "max-body-bytes-in-flight", maxInFlight, "request body bytes held at once by all requests together; a request that cannot get its share within 1s gets 503 (env MDC_MAX_BODY_BYTES_IN_FLIGHT)")
	fs.DurationVar(&o.CallTimeout, "call-timeout", callTimeout, "deadline of every forwarded gRPC call (env MDC_CALL_TIMEOUT)")
	fs.DurationVar(&o.ExportWriteTimeout, "export-write-timeout", exportWriteTimeout, "how long an export's download may make no progress (its client reads nothing) before it is ended (env MDC_EXPORT_WRITE_TIMEOUT)")
	fs.Int64Var(&o.ImportMaxBytes, "import-max-bytes", importMaxBytes, "largest file an import (POST /v1/admin/import/...) takes, in bytes; Parquet files are spooled to a temporary file of at most this size (env MDC_IMPORT_MAX_BYTES)")
	fs.StringVar(&corsOrigins, "cors-origins", env("MDC_CORS_ORIGINS", ""), "comma-separated origins browsers may call the API from, e.g. https://a.example,http://localhost:5173; empty: no CORS (env MDC_CORS_ORIGINS)")
	version := fs.Bool("version", false, "print the version and exit")
	fs.StringVar(&logLevel, "log-level", env("MDC_LOG_LEVEL", "info"), "least severe level logged: debug, info, warn or error (env MDC_LOG_LEVEL)")
	fs.StringVar(&accessLog, "access-log", env("MDC_ACCESS_LOG", "on"), "one log line per request: on or off; 5xx answers are logged at error level regardless (env MDC_ACCESS_LOG)")
	fs.StringVar(&o.TLSCertFile, "tls-cert", env("MDC_TLS_CERT", ""), "PEM certificate (chain) for HTTPS; with --tls-key the gateway serves HTTPS only (env MDC_TLS_CERT)")
	fs.StringVar(&o.TLSKeyFile, "tls-key", env("MDC_TLS_KEY", ""), "PEM private key of --tls-cert (env MDC_TLS_KEY)")
	fs.StringVar(&o.GRPCTLSCAFile, "grpc-tls-ca", env("MDC_GRPC_TLS_CA", ""), "PEM CA certificates to verify the gRPC server with; set, the gateway dials it with TLS (env MDC_GRPC_TLS_CA)")
	fs.StringVar(&o.GRPCTLSServerName, "grpc-tls-server-name", env("MDC_GRPC_TLS_SERVER_NAME", ""), "name the gRPC server's certificate must carry; default the host of each server's address (env MDC_GRPC_TLS_SERVER_NAME)")
	fs.StringVar(&o.MetricsAddr, "metrics-addr", env("MDC_GATEWAY_METRICS_ADDR", ""), "host:port of a listener of its own for Prometheus /metrics, e.g. 127.0.0.1:9465; empty: no metrics (env MDC_GATEWAY_METRICS_ADDR)")
	fs.IntVar(&o.StreamsPerConnection, "streams-per-connection", streamsPerConn, fmt.Sprintf("most streaming calls (watches, replays) one gRPC connection of the gateway carries; more open further connections; keep it below the servers' MDC_MAX_THREADS/2 (1-%d; env MDC_GATEWAY_STREAMS_PER_CONNECTION)", upstream.MaxStreamsPerConnection))
	fs.StringVar(&trustedProxies, "trusted-proxies", env("MDC_GATEWAY_TRUSTED_PROXIES", ""), "comma-separated IP addresses or CIDR prefixes of the proxies in front of the gateway (a load balancer) whose X-Forwarded-For names the client; empty: none (env MDC_GATEWAY_TRUSTED_PROXIES)")
	fs.IntVar(&o.HeavyReads, "heavy-reads", heavyReads, "heavy reads (cross-sections, candles of many symbols, coverage) forwarded at once; more wait their turn, the tokens served in turn, for at most --call-timeout, then get 429 (0: no limit; 0-1024; env MDC_GATEWAY_HEAVY_READS)")
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if *version {
		return Options{}, ErrVersion
	}
	if fs.NArg() > 0 {
		return Options{}, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.MaxBodyBytes <= 0 {
		return Options{}, fmt.Errorf("--max-body-bytes must be positive, got %d", o.MaxBodyBytes)
	}
	if o.MaxBodyBytesInFlight <= 0 {
		return Options{}, fmt.Errorf("--max-body-bytes-in-flight must be positive, got %d", o.MaxBodyBytesInFlight)
	}
	if o.ExportWriteTimeout <= 0 {
		return Options{}, fmt.Errorf("--export-write-timeout must be positive, got %s", o.ExportWriteTimeout)
	}
	if o.ImportMaxBytes <= 0 {
		return Options{}, fmt.Errorf("--import-max-bytes must be positive, got %d", o.ImportMaxBytes)
	}
	if o.CallTimeout <= 0 {
		return Options{}, fmt.Errorf("--call-timeout must be positive, got %s", o.CallTimeout)
	}
	if o.StreamsPerConnection < 1 || o.StreamsPerConnection > upstream.MaxStreamsPerConnection {
		return Options{}, fmt.Errorf("--streams-per-connection (MDC_GATEWAY_STREAMS_PER_CONNECTION) must be from 1 to %d, got %d", upstream.MaxStreamsPerConnection, o.StreamsPerConnection)
	}
	if o.HeavyReads < 0 || o.HeavyReads > 1024 {
		return Options{}, fmt.Errorf("--heavy-reads (MDC_GATEWAY_HEAVY_READS) must be from 0 to 1024, got %d", o.HeavyReads)
	}
	if o.HeavyReads == 0 {
		o.HeavyReads = -1 // no limit (zero in Options means the default)
	}
	if o.TrustedProxies, err = transport.ParseTrustedProxies(trustedProxies); err != nil {
		return Options{}, fmt.Errorf("--trusted-proxies (MDC_GATEWAY_TRUSTED_PROXIES): %w", err)
	}
	if o.CORSOrigins, err = transport.ParseOrigins(corsOrigins); err != nil {
		return Options{}, fmt.Errorf("--cors-origins: %w", err)
	}
	if o.LogLevel, err = observe.ParseLogLevel(logLevel); err != nil {
		return Options{}, fmt.Errorf("--log-level (MDC_LOG_LEVEL): %w", err)
	}
	on, err := parseSwitch(accessLog)
	if err != nil {
		return Options{}, fmt.Errorf("--access-log (MDC_ACCESS_LOG): %w", err)
	}
	o.NoAccessLog = !on
	if _, err := upstream.ParseServerAddrs(o.GRPCAddr); err != nil {
		return Options{}, fmt.Errorf("--grpc-addr (MDC_GRPC_ADDR): %w", err)
	}
	if err := transport.CheckPair("MDC_TLS_CERT", o.TLSCertFile, "MDC_TLS_KEY", o.TLSKeyFile); err != nil {
		return Options{}, err
	}
	if o.GRPCTLSServerName != "" && o.GRPCTLSCAFile == "" {
		return Options{}, errors.New("MDC_GRPC_TLS_SERVER_NAME is set but MDC_GRPC_TLS_CA is not: TLS to the server needs the CA that signed its certificate")
	}
	return o, nil
}
