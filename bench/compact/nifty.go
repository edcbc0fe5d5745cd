package main

// The NIFTY side of bench/compact/run.sh: one trading day of NIFTY 50
// quotes through SaveNifty (POST /v1/developer/collector/nifty, one quote a
// request, as the collector posts them), shaped like the index's day:
//
//   - a quote a second from 09:15:00 IST;
//
//   - the level a random walk in steps of 0.05 from 24,950.55 (seeded);
//
//   - the payload as an index quote carries it: last_price, day_change,
//     day_change_perc (two decimals, against the previous close) and the
//     day's OHLC following the walk; no volume, no depth; the request's
//     dayChangePerc is the payload's.
//
//     compact nifty -url URL -token T -day 2025-08-01 -seconds 20000

import (
	"flag"
	"fmt"
	"math/rand"
	"net/http"
	"os"
	"time"
)

func writeNifty(args []string) {
	fs := flag.NewFlagSet("nifty", flag.ExitOnError)
	url := fs.String("url", "", "gateway base URL")
	token := fs.String("token", "", "developer or admin token")
	day := fs.String("day", "2025-08-01", "trading day")
	seconds := fs.Int("seconds", 20000, "quotes, one a second")
	fs.Parse(args)
	ist := time.FixedZone("IST", 5*3600+1800)
	open, err := time.ParseInLocation("2006-01-02 15:04:05", *day+" 09:15:00", ist)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	r := rand.New(rand.NewSource(50))
	const previousClose = 24950.55
	index := walk{open: 24990.1, price: 24990.1, high: 24990.1, low: 24990.1}
	client := &http.Client{Timeout: time.Minute}
	for s := 0; s < *seconds; s++ {
		at := open.Add(time.Duration(s) * time.Second)
		index.step(r)
		change := round2(index.price - previousClose)
		perc := round2(change / previousClose * 100)
		payload := map[string]any{
			"last_price": index.price, "day_change": change, "day_change_perc": perc,
			"ohlc": map[string]any{"open": index.open, "high": index.high, "low": index.low, "close": previousClose},
		}
		post(client, *url+"/v1/developer/collector/nifty", *token, map[string]any{"data": map[string]any{
			"timestamp": at.Format("2006-01-02T15:04:05"), "timezone": "Asia/Kolkata",
			"quoteData": map[string]any{"status": "SUCCESS", "payload": payload}, "dayChangePerc": perc}})
	}
}
