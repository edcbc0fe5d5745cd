// Package gateway is the mdc REST/JSON gateway: grpc-gateway handlers for
// every mdc.v1 service on connections to the C++ gRPC servers, plus the
// HTTP conventions of docs/api.md section 1 (JSON shape, error mapping, body
// limit, header forwarding, health status, OpenAPI document, access log).
// It holds no business logic and no state.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

// Run serves the gateway on o.HTTPAddr until ctx is done, then drains
// in-flight requests for at most o.ShutdownTimeout.
func Run(ctx context.Context, o Options) error {
	o = o.withDefaults()
	if o.MetricsAddr != "" {
		o.metrics = newHTTPMetrics()
	}
	metrics, err := startMetrics(o.MetricsAddr, o.metrics, o.Logger)
	if err != nil {
		return err
	}
	defer metrics.close(o.ShutdownTimeout, o.Logger)
	tlsConfig, err := serverTLSConfig(o.TLSCertFile, o.TLSKeyFile)
	if err != nil {
		return err
	}
	transport, err := grpcTransport(o.GRPCTLSCAFile, o.GRPCTLSServerName)
	if err != nil {
		return err
	}
	conn, err := Dial(o.GRPCAddr, o.CallTimeout, transport)
	if err != nil {
		return err
	}
	defer conn.Close()
	// What /health asks when no server is healthy (health.go).
	probe, err := Dial(o.GRPCAddr, o.CallTimeout, transport, grpc.WithDefaultServiceConfig(anyServerServiceConfig))
	if err != nil {
		return err
	}
	defer probe.Close()
	// Watches and replays hold their calls for long: they get connections
	// of their own, so they never take the slots of the unary calls.
	streams, err := dialStreamPool(o.GRPCAddr, o.CallTimeout, o.StreamsPerConnection, transport)
	if err != nil {
		return err
	}
	defer streams.Close()
	o.metrics.observeStreamPool(streams)

	handler, err := newHandler(ctx, conn, probe, streams, o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.HTTPAddr, err)
	}
	if tlsConfig == nil {
		// net/http's own answers to malformed requests become JSON too.
		ln = jsonErrorListener{ln}
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      o.CallTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHTTPHeaderBytes, // see headerlimit.go
		TLSConfig:         tlsConfig,
	}
	o.Logger.Info("mdc-gateway listening", "http_addr", ln.Addr().String(), "grpc_addr", o.GRPCAddr,
		"https", tlsConfig != nil, "grpc_tls", o.GRPCTLSCAFile != "")

	served := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			// The certificate is in srv.TLSConfig; ServeTLS adds HTTP/2.
			served <- srv.ServeTLS(ln, "", "")
			return
		}
		served <- srv.Serve(ln)
	}()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}

	o.Logger.Info("mdc-gateway shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
