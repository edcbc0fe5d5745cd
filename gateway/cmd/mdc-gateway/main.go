// Command mdc-gateway serves the mdc API as REST/JSON in front of the mdc
// gRPC server. See internal/gateway for what it does.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"mdc/gateway/internal/gateway"
)

// defaultGCPercent replaces Go's GOGC=100 unless GOGC is set: the gateway's
// live heap is a few MB, so letting it grow 5x before a collection costs
// little memory and saves about a tenth of its CPU under load
// (docs/performance.md).
const defaultGCPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	opts, err := gateway.ParseOptions(os.Args[1:], os.Getenv, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mdc-gateway:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := gateway.Run(ctx, opts); err != nil {
		fmt.Fprintln(os.Stderr, "mdc-gateway:", err)
		os.Exit(1)
	}
}
