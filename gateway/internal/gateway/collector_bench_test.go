package gateway

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"mdc/gateway/internal/observe"
)

// The collector writes of bench/run.sh (bench/grpcload payload -format json),
// through the gateway's whole handler chain to an in-process fake server,
// with the access log on (encoded as mdc-gateway encodes it, then
// discarded) and no metrics listener, as bench/run.sh starts the gateway.
// They are for profiling and A/B comparison of the gateway's own CPU per
// request (docs/performance.md, issue 25), e.g.
//
//	go test ./internal/gateway -run '^$' -bench Collector -count 10 -cpuprofile cpu.out
//
// Besides the wall time per request, which the other work on a shared
// machine blurs, each reports cpu-ns/op: the CPU time of the whole test
// process (gateway, fake server, and for HTTP the client) per request.
//
// Handler calls ServeHTTP directly (the gateway's own code, no sockets);
// HTTP goes over loopback with a keep-alive client in the same process.

const benchShortlistBody = `{"data":{"timestamp":"2026-01-05T09:15:00", "timezone":"UTC", "shortlistType":"TOP_GAINERS", "scope":"TOP_5", "entries":[` +
	`{"nseSymbol":"STOCK01", "name":"Stock 01 Industries Limited", "price":100}, {"nseSymbol":"STOCK02", "name":"Stock 02 Industries Limited", "price":137.25}, ` +
	`{"nseSymbol":"STOCK03", "name":"Stock 03 Industries Limited", "price":174.5}, {"nseSymbol":"STOCK04", "name":"Stock 04 Industries Limited", "price":211.75}, ` +
	`{"nseSymbol":"STOCK05", "name":"Stock 05 Industries Limited", "price":249}, {"nseSymbol":"STOCK06", "name":"Stock 06 Industries Limited", "price":286.25}, ` +
	`{"nseSymbol":"STOCK07", "name":"Stock 07 Industries Limited", "price":323.5}, {"nseSymbol":"STOCK08", "name":"Stock 08 Industries Limited", "price":360.75}, ` +
	`{"nseSymbol":"STOCK09", "name":"Stock 09 Industries Limited", "price":398}, {"nseSymbol":"STOCK10", "name":"Stock 10 Industries Limited", "price":435.25}, ` +
	`{"nseSymbol":"STOCK11", "name":"Stock 11 Industries Limited", "price":472.5}, {"nseSymbol":"STOCK12", "name":"Stock 12 Industries Limited", "price":509.75}, ` +
	`{"nseSymbol":"STOCK13", "name":"Stock 13 Industries Limited", "price":547}, {"nseSymbol":"STOCK14", "name":"Stock 14 Industries Limited", "price":584.25}, ` +
	`{"nseSymbol":"STOCK15", "name":"Stock 15 Industries Limited", "price":621.5}, {"nseSymbol":"STOCK16", "name":"Stock 16 Industries Limited", "price":658.75}, ` +
	`{"nseSymbol":"STOCK17", "name":"Stock 17 Industries Limited", "price":696}, {"nseSymbol":"STOCK18", "name":"Stock 18 Industries Limited", "price":733.25}, ` +
	`{"nseSymbol":"STOCK19", "name":"Stock 19 Industries Limited", "price":770.5}, {"nseSymbol":"STOCK20", "name":"Stock 20 Industries Limited", "price":807.75}]}}`

const benchNiftyBody = `{"data":{"timestamp":"2026-01-05T09:15:00", "timezone":"UTC", "quoteData":{"status":"SUCCESS", "payload":{"last_price":24350.55, ` +
	`"day_change":101.8, "day_change_perc":0.42, "volume":182736450, "average_price":24338.25, "bid_quantity":1500, "bid_price":24350.5, ` +
	`"upper_circuit_limit":26785.605, "lower_circuit_limit":21915.495, "high_trade_range":24430.55, "low_trade_range":24255.55, ` +
	`"implied_volatility":13.7, "last_trade_quantity":75, "market_cap":190000000000000, "offer_price":24350.6, "offer_quantity":900, ` +
	`"oi_day_change":-1200, "oi_day_change_percentage":-0.8, "open_interest":150000, "previous_open_interest":151200, ` +
	`"total_buy_quantity":2400000, "total_sell_quantity":2100000, "week_52_high":26277.35, "week_52_low":21281.45, ` +
	`"last_trade_time":1735632000000, "ohlc":{"open":24290.55, "high":24430.55, "low":24255.55, "close":24248.75}, ` +
	`"depth":{"buy":[{"price":24350.5, "quantity":75}, {"price":24350.45, "quantity":150}, {"price":24350.399999999998, "quantity":225}, ` +
	`{"price":24350.35, "quantity":300}, {"price":24350.3, "quantity":375}], "sell":[{"price":24350.6, "quantity":50}, ` +
	`{"price":24350.649999999998, "quantity":100}, {"price":24350.7, "quantity":150}, {"price":24350.75, "quantity":200}, ` +
	`{"price":24350.8, "quantity":250}]}}}, "dayChangePerc":0.42}}`

var benchCollectorWrites = []struct{ name, path, body string }{
	{"Shortlist", "/v1/developer/collector/shortlists", benchShortlistBody},
	{"Nifty", "/v1/developer/collector/nifty", benchNiftyBody},
}

// benchHandler is the gateway's handler in front of a fake server, set up
// as bench/run.sh runs mdc-gateway.
func benchHandler(b *testing.B) http.Handler {
	_, addr := startFakeServer(b)
	o := testOptions()
	o.Logger = observe.NewLogger(io.Discard, slog.LevelInfo)
	h, _ := newPooledTestHandler(b, addr, o)
	return h
}

// processCPU is the user and system CPU time of this process so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runParallelCPU is b.RunParallel(body), reporting cpu-ns/op too.
func runParallelCPU(b *testing.B, body func(*testing.PB)) {
	b.ReportAllocs()
	b.SetParallelism(8) // requests in flight per GOMAXPROCS, like wrk's connections
	start := processCPU(b)
	b.RunParallel(body)
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

// discardWriter is a ResponseWriter that keeps the status only.
type discardWriter struct {
	header http.Header
	status int
}

func (d *discardWriter) Header() http.Header         { return d.header }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(code int)        { d.status = code }

func BenchmarkCollectorHandler(b *testing.B) {
	for _, c := range benchCollectorWrites {
		b.Run(c.name, func(b *testing.B) {
			h := benchHandler(b)
			runParallelCPU(b, func(pb *testing.PB) {
				for pb.Next() {
					r, _ := http.NewRequest(http.MethodPost, "http://gateway.test"+c.path, strings.NewReader(c.body))
					r.RemoteAddr = "192.0.2.1:1234"
					r.Header.Set("Content-Type", "application/json")
					r.Header.Set("Authorization", "Bearer mdc_bench-token-0123456789abcdef")
					w := &discardWriter{header: http.Header{}, status: http.StatusOK}
					h.ServeHTTP(w, r)
					if w.status != http.StatusOK {
						b.Fatalf("status %d", w.status)
					}
				}
			})
		})
	}
}

func BenchmarkCollectorHTTP(b *testing.B) {
	for _, c := range benchCollectorWrites {
		b.Run(c.name, func(b *testing.B) {
			ts := httptest.NewServer(benchHandler(b))
			b.Cleanup(ts.Close)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			b.Cleanup(client.CloseIdleConnections)
			body := []byte(c.body)
			runParallelCPU(b, func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodPost, ts.URL+c.path, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer mdc_bench-token-0123456789abcdef")
					resp, err := client.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
			})
		})
	}
}
