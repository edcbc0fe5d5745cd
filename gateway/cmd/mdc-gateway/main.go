// Command mdc-gateway serves the mdc API as REST/JSON in front of the mdc
// gRPC server. See internal/gateway for what it does and docs/architecture.md
// for its packages.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"mdc/gateway/internal/gateway"
	"mdc/gateway/internal/observe"
)

// defaultGCPercent replaces Go's GOGC=100 unless GOGC is set: the gateway's
// live heap is a few MB, so letting it grow 5x before a collection costs
// little memory and saves about a tenth of its CPU under load
// (docs/performance.md).
const defaultGCPercent = 400

// defaultMemoryLimit is the gateway's soft memory limit unless GOMEMLIMIT is
// set: with GOGC at 400 a heap of a few live MB is cheap, but eight Parquet
// exports (about 12 MB live each) let the heap grow to 700 MB before a
// collection (issue 31). Past this limit the runtime collects as often as
// it needs to stay under it (at most half the CPU), whatever GOGC says.
const defaultMemoryLimit = 200 << 20

// version is the mdc project version, set at build time by build.sh:
// -ldflags "-X main.version=0.1.0" (project(mdc VERSION ...) of the top
// CMakeLists.txt).
var version = "dev"

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
	opts, code, exit := parseArgs(os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	if exit {
		os.Exit(code)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	opts.Logger = observe.NewLogger(os.Stderr, opts.LogLevel)
	opts.Logger.Info("mdc-gateway starting", "version", version)
	if err := gateway.Run(ctx, opts); err != nil {
		fmt.Fprintln(os.Stderr, "mdc-gateway:", err)
		os.Exit(1)
	}
}

// parseArgs reads the options, and handles what ends the program before it
// serves: --help, --version (exit 0) and invalid settings (exit 2, with the
// reason on stderr). exit says whether to exit with code.
func parseArgs(args []string, getenv func(string) string, stdout, stderr io.Writer) (opts gateway.Options, code int, exit bool) {
	opts, err := gateway.ParseOptions(args, getenv, stderr)
	switch {
	case err == nil:
		return opts, 0, false
	case errors.Is(err, gateway.ErrVersion):
		fmt.Fprintln(stdout, "mdc-gateway", version)
		return opts, 0, true
	case errors.Is(err, flag.ErrHelp):
		return opts, 0, true
	default:
		fmt.Fprintln(stderr, "mdc-gateway:", err)
		return opts, 2, true
	}
}
