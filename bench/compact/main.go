// Command compact is the load side of bench/compact/run.sh (issue 32): it
// writes one trading day of quotes through SaveQuotes (POST
// /v1/developer/collector/quotes), shaped like a real day:
//
//   - every symbol quotes once a second from 09:15:00 IST, all symbols of
//     one second in one request;
//
//   - each price is a random walk in ticks of 0.05 from a start between 50
//     and 5,000 (seeded, so runs write the same day);
//
//   - the day's volume rises by a random 0-500 shares a quote;
//
//   - a full quote carries every payload number, the day's OHLC (following
//     the walk) and five depth levels a side, 0.05 apart around the price
//     with random quantities; a short quote carries what the seed data has:
//     last_price, day_change_perc, volume and ohlc.
//
//     compact write -url URL -token T -day 2025-06-02 -symbols 200 -seconds 100 -shape full|short
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"net/http"
	"os"
	"time"
)

type walk struct {
	open, price, high, low, volume float64
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

func (w *walk) step(r *rand.Rand) {
	w.price = math.Max(0.05, round2(w.price+0.05*float64(r.Intn(5)-2)))
	w.high = math.Max(w.high, w.price)
	w.low = math.Min(w.low, w.price)
	w.volume += float64(r.Intn(501))
}

func (w *walk) payload(r *rand.Rand, shape string, at time.Time) map[string]any {
	ohlc := map[string]any{"open": w.open, "high": w.high, "low": w.low, "close": round2(w.open * 0.99)}
	change := round2((w.price - w.open*0.99) / (w.open * 0.99) * 100)
	if shape == "short" {
		return map[string]any{"last_price": w.price, "day_change_perc": change, "volume": w.volume, "ohlc": ohlc}
	}
	var buy, sell []any
	for level := 1; level <= 5; level++ {
		buy = append(buy, map[string]any{"price": round2(w.price - 0.05*float64(level)), "quantity": float64(1 + r.Intn(2000))})
		sell = append(sell, map[string]any{"price": round2(w.price + 0.05*float64(level)), "quantity": float64(1 + r.Intn(2000))})
	}
	return map[string]any{
		"last_price": w.price, "day_change": round2(w.price - w.open*0.99), "day_change_perc": change,
		"volume": w.volume, "average_price": round2((w.high + w.low + w.price) / 3),
		"bid_quantity": float64(1 + r.Intn(2000)), "bid_price": round2(w.price - 0.05),
		"upper_circuit_limit": round2(w.open * 1.2), "lower_circuit_limit": round2(w.open * 0.8),
		"high_trade_range": round2(w.open * 1.05), "low_trade_range": round2(w.open * 0.95),
		"implied_volatility": 0, "last_trade_quantity": float64(1 + r.Intn(100)),
		"market_cap": round2(w.price * 1e7), "offer_price": round2(w.price + 0.05),
		"offer_quantity": float64(1 + r.Intn(2000)), "oi_day_change": 0, "oi_day_change_percentage": 0,
		"open_interest": 0, "previous_open_interest": 0,
		"total_buy_quantity": float64(100000 + r.Intn(50000)), "total_sell_quantity": float64(100000 + r.Intn(50000)),
		"week_52_high": round2(w.open * 1.4), "week_52_low": round2(w.open * 0.7),
		"last_trade_time": float64(at.UnixMilli() - int64(r.Intn(1000))),
		"ohlc":            ohlc, "depth": map[string]any{"buy": buy, "sell": sell},
	}
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "nifty" {
		writeNifty(os.Args[2:]) // nifty.go
		return
	}
	if len(os.Args) < 2 || os.Args[1] != "write" {
		fmt.Fprintln(os.Stderr, "usage: compact write -url URL -token T -day YYYY-MM-DD -symbols N -seconds N -shape full|short")
		fmt.Fprintln(os.Stderr, "       compact nifty -url URL -token T -day YYYY-MM-DD -seconds N")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("write", flag.ExitOnError)
	url := fs.String("url", "", "gateway base URL")
	token := fs.String("token", "", "developer or admin token")
	day := fs.String("day", "2025-06-02", "trading day")
	symbols := fs.Int("symbols", 200, "symbols")
	seconds := fs.Int("seconds", 100, "quotes per symbol, one a second")
	shape := fs.String("shape", "full", "full or short")
	prefix := fs.String("prefix", "BQ", "symbol prefix")
	fs.Parse(os.Args[2:])
	ist := time.FixedZone("IST", 5*3600+1800)
	open, err := time.ParseInLocation("2006-01-02 15:04:05", *day+" 09:15:00", ist)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	r := rand.New(rand.NewSource(32))
	walks := make([]walk, *symbols)
	for i := range walks {
		start := round2(50 + r.Float64()*4950)
		walks[i] = walk{open: start, price: start, high: start, low: start, volume: float64(r.Intn(10000))}
	}
	client := &http.Client{Timeout: time.Minute}
	for s := 0; s < *seconds; s++ {
		at := open.Add(time.Duration(s) * time.Second)
		quotes := make([]any, 0, *symbols)
		for i := range walks {
			walks[i].step(r)
			quotes = append(quotes, map[string]any{
				"nseSymbol": fmt.Sprintf("%s%04d", *prefix, i),
				"quoteData": map[string]any{"status": "SUCCESS", "payload": walks[i].payload(r, *shape, at)},
			})
		}
		post(client, *url+"/v1/developer/collector/quotes", *token, map[string]any{"data": map[string]any{
			"timestamp": at.Format("2006-01-02T15:04:05"), "timezone": "Asia/Kolkata", "quotes": quotes}})
	}
}

// post sends body as JSON with the token; any failure ends the command.
func post(client *http.Client, url, token string, body any) {
	encoded, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(encoded))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		fmt.Fprintf(os.Stderr, "POST %s: HTTP %d\n", url, resp.StatusCode)
		os.Exit(1)
	}
}
