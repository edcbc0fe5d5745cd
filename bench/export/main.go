// Command export is the cross-section side of bench/export/run.sh: how much
// faster one GET /v1/developer/quotes of N symbols is than N GET
// /v1/developer/quote calls asking for the same quotes, and the latency of
// the cross-section call.
//
//	export xsection -url URL -token T -prefix LD -symbols 1000 \
//	    -datetime 2035-09-04T09:40:00 -rounds 5 -calls 200
//
// Each round times the N single calls (one after the other, on one
// keep-alive connection, as a strategy loop would make them) and one
// cross-section call, checks that both found N quotes, and prints
//
//	ROUND singles_ms=.. cross_ms=.. ratio=..
//
// then -calls cross-section calls one after the other:
//
//	RESULT calls=N p50_ms=.. p90_ms=.. p99_ms=.. max_ms=.. median_ratio=..
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "xsection" {
		fmt.Fprintln(os.Stderr, "usage: export xsection -url URL -token T [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("xsection", flag.ExitOnError)
	base := fs.String("url", "", "gateway base URL")
	token := fs.String("token", "", "bearer token")
	prefix := fs.String("prefix", "LD", "symbols are PREFIX0 .. PREFIX<n-1>")
	n := fs.Int("symbols", 1000, "symbols per cross-section")
	datetime := fs.String("datetime", "", "as of this IST wall clock")
	rounds := fs.Int("rounds", 5, "rounds of singles against one cross-section")
	calls := fs.Int("calls", 200, "cross-section calls for the latency percentiles")
	_ = fs.Parse(os.Args[2:])

	client := &http.Client{Timeout: time.Minute}
	get := func(path string) (map[string]any, error) {
		req, _ := http.NewRequest(http.MethodGet, *base+path, nil)
		req.Header.Set("Authorization", "Bearer "+*token)
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != 200 {
			return nil, fmt.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
		var out map[string]any
		return out, json.Unmarshal(body, &out)
	}
	symbols := make([]string, *n)
	for i := range symbols {
		symbols[i] = fmt.Sprintf("%s%d", *prefix, i)
	}
	at := url.QueryEscape(*datetime)
	cross := "/v1/developer/quotes?datetime=" + at + "&symbols=" + strings.Join(symbols, ",")
	crossOnce := func() (time.Duration, error) {
		start := time.Now()
		out, err := get(cross)
		if err != nil {
			return 0, err
		}
		if got := len(out["quotes"].([]any)); got != *n {
			return 0, fmt.Errorf("cross-section: %d quotes, want %d", got, *n)
		}
		return time.Since(start), nil
	}
	var ratios []float64
	for r := 0; r < *rounds; r++ {
		start := time.Now()
		for _, s := range symbols {
			out, err := get("/v1/developer/quote?datetime=" + at + "&symbol=" + s)
			if err != nil {
				fail(err)
			}
			if out["nseSymbol"] != s {
				fail(fmt.Errorf("quote of %s: %v", s, out))
			}
		}
		singles := time.Since(start)
		crossTime, err := crossOnce()
		if err != nil {
			fail(err)
		}
		ratio := singles.Seconds() / crossTime.Seconds()
		ratios = append(ratios, ratio)
		fmt.Printf("ROUND singles_ms=%.1f cross_ms=%.1f ratio=%.1f\n", ms(singles), ms(crossTime), ratio)
	}
	var lat []time.Duration
	for i := 0; i < *calls; i++ {
		d, err := crossOnce()
		if err != nil {
			fail(err)
		}
		lat = append(lat, d)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	sort.Float64s(ratios)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("RESULT calls=%d p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f median_ratio=%.1f\n",
		len(lat), ms(pct(0.5)), ms(pct(0.9)), ms(pct(0.99)), ms(lat[len(lat)-1]), ratios[len(ratios)/2])
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "export xsection:", err)
	os.Exit(1)
}
