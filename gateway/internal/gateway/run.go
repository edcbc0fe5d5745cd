// Package gateway is the mdc REST/JSON gateway put together: its options
// (config.go), the grpc-gateway mux with every mdc.v1 service and the chain
// of middleware in front of it (handler.go), the mux's error handler
// (errors.go) and header forwarding (headers.go), and Run, the HTTP
// server's life. What each layer does is its own package's: transport (the
// HTTP side), codec (JSON in and out), upstream (the gRPC side), stream,
// static, observe, routes. It holds no business logic and no state.
package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"

	"mdc/gateway/internal/memrelease"
	"mdc/gateway/internal/observe"
	"mdc/gateway/internal/transport"
	"mdc/gateway/internal/upstream"
)

// Run serves the gateway on o.HTTPAddr until ctx is done, then drains
// in-flight requests for at most o.ShutdownTimeout.
func Run(ctx context.Context, o Options) error {
	o = o.withDefaults()
	if o.MetricsAddr != "" {
		o.metrics = observe.NewMetrics()
	}
	metrics, err := observe.ServeMetrics(o.MetricsAddr, o.metrics, o.Logger)
	if err != nil {
		return err
	}
	defer metrics.Close(o.ShutdownTimeout, o.Logger)
	tlsConfig, err := transport.ServerTLSConfig(o.TLSCertFile, o.TLSKeyFile)
	if err != nil {
		return err
	}
	credentials, err := upstream.Credentials(o.GRPCTLSCAFile, o.GRPCTLSServerName)
	if err != nil {
		return err
	}
	conn, err := upstream.Dial(o.GRPCAddr, o.CallTimeout, credentials)
	if err != nil {
		return err
	}
	defer conn.Close()
	// What /health asks when no server is healthy (upstream.RegisterHealth).
	probe, err := upstream.Dial(o.GRPCAddr, o.CallTimeout, credentials, grpc.WithDefaultServiceConfig(upstream.AnyServerServiceConfig))
	if err != nil {
		return err
	}
	defer probe.Close()
	// Watches and replays hold their calls for long: they get connections
	// of their own, so they never take the slots of the unary calls.
	streams, err := upstream.DialStreamPool(o.GRPCAddr, o.CallTimeout, o.StreamsPerConnection, credentials)
	if err != nil {
		return err
	}
	defer streams.Close()
	o.metrics.ObserveStreamPool(streams)

	// A burst of large bodies leaves garbage an idle gateway would keep for
	// minutes.
	go memrelease.Loop(ctx, func(excess uint64) {
		o.Logger.Info("returned free memory to the system", "excess_bytes", excess)
	})

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
		ln = transport.JSONErrorListener{Listener: ln}
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      o.CallTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    transport.MaxHTTPHeaderBytes,
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
