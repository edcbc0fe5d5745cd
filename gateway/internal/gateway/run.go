// Package gateway is the mdc REST/JSON gateway: grpc-gateway handlers for
// every mdc.v1 service on one connection to the C++ gRPC server, plus the
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
)

// Run serves the gateway on o.HTTPAddr until ctx is done, then drains
// in-flight requests for at most o.ShutdownTimeout.
func Run(ctx context.Context, o Options) error {
	o = o.withDefaults()
	conn, err := Dial(o.GRPCAddr, o.CallTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()

	handler, err := NewHandler(ctx, conn, o)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.HTTPAddr, err)
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      o.CallTimeout + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    maxHTTPHeaderBytes, // see headerlimit.go
	}
	o.Logger.Info("mdc-gateway listening", "http_addr", ln.Addr().String(), "grpc_addr", o.GRPCAddr)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
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
