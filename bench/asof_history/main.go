// Command asof_history is the load side of bench/asof_history/run.sh: the
// as-of read benchmark over a large quote history (issue 15, deliver 5).
//
//	asof_history template -symbols 2000                # COPY rows of one day's quotes
//	asof_history save -grpc ADDR -token T -timestamp 2026-05-01T09:15:00 -symbols 300
//	asof_history run -mode http|grpc -url URL -grpc ADDR -token T \
//	    -days 2026-05-04,2026-05-05 -conns 8 -duration 10s
//
// The history itself is written by SQL (run.sh): every trading day is a copy
// of one day's template, the quotes of `template` (symbol SYMnnnn, minute m
// of the session from 09:15 IST) stamped with that day. `template` builds
// each quote with the generated protobuf code, as a collector's quote is
// stored; `save` sends the same quotes through SaveQuotes so that run.sh can
// compare the stored bytes with the template's before it generates anything.
//
// `run` reads as of random instants: a random symbol, a random trading day
// of -days and a random second of the session (09:15:00-15:30:59 IST), and
// checks every answer: the quote of that symbol stamped at the start of the
// instant's minute, with that minute's price. It prints one line:
//
//	RESULT requests=N errors=N wrong=N seconds=S rps=R p50_us=.. p90_us=.. p99_us=.. max_us=..
package main

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"mdc/gateway/gen/mdcv1"
)

// sessionMinutes: 09:15 to 15:30 IST, both included.
const sessionMinutes = 376

var ist = time.FixedZone("IST", 5*3600+1800)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "template":
		err = templateCommand(os.Args[2:])
	case "save":
		err = saveCommand(os.Args[2:])
	case "run":
		err = runCommand(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "asof_history:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: asof_history template|save|run [flags]; see -h of each")
	os.Exit(2)
}

func symbol(i int) string { return fmt.Sprintf("SYM%04d", i+1) }

// price of symbol i at minute m of the session: whole paise, so that it
// survives JSON and the check in run compares exactly.
func price(i, m int) float64 { return float64(10000+i*50+m*5) / 100 }

// quote is the short form a collector posts per stock (as bench/grpcload's
// Save Quote): price, day change, cumulative volume and the day's OHLC.
func quote(i, m int) *mdcv1.QuoteData {
	f := proto.Float64
	p := price(i, m)
	return &mdcv1.QuoteData{Status: mdcv1.QuoteStatus_SUCCESS, Payload: &mdcv1.QuotePayload{
		LastPrice: f(p), DayChangePerc: f(1.25), Volume: f(float64(1000 * (m + 1) * (i%7 + 1))),
		Ohlc: &mdcv1.Ohlc{Open: f(price(i, 0)), High: f(p + 2), Low: f(price(i, 0) - 3), Close: f(p - 1.2)},
	}}
}

// templateCommand prints one day's quotes as COPY text rows:
// nse_symbol, minute, last_price, volume, quote_data.
func templateCommand(args []string) error {
	fs := flag.NewFlagSet("template", flag.ExitOnError)
	symbols := fs.Int("symbols", 2000, "symbols")
	fs.Parse(args)
	w := os.Stdout
	buf := make([]byte, 0, 1<<20)
	opts := proto.MarshalOptions{Deterministic: true}
	for i := 0; i < *symbols; i++ {
		for m := 0; m < sessionMinutes; m++ {
			q := quote(i, m)
			b, err := opts.Marshal(q)
			if err != nil {
				return err
			}
			buf = fmt.Appendf(buf, "%s\t%d\t%v\t%v\t\\\\x%s\n", symbol(i), m,
				q.Payload.GetLastPrice(), q.Payload.GetVolume(), hex.EncodeToString(b))
			if len(buf) > 1<<19 {
				if _, err := w.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	_, err := w.Write(buf)
	return err
}

func authed(token string) context.Context {
	return metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+token)
}

// saveCommand stores minute 0's quotes of the first -symbols symbols at
// -timestamp through SaveQuotes.
func saveCommand(args []string) error {
	fs := flag.NewFlagSet("save", flag.ExitOnError)
	addr := fs.String("grpc", "127.0.0.1:50051", "mdc-server gRPC address")
	token := fs.String("token", "", "developer token")
	timestamp := fs.String("timestamp", "", "YYYY-MM-DDTHH:MM:SS, Asia/Kolkata")
	symbols := fs.Int("symbols", 300, "symbols (at most 1000)")
	fs.Parse(args)
	conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	items := make([]*mdcv1.QuoteItem, *symbols)
	for i := range items {
		items[i] = &mdcv1.QuoteItem{NseSymbol: symbol(i), QuoteData: quote(i, 0)}
	}
	_, err = mdcv1.NewCollectorServiceClient(conn).SaveQuotes(authed(*token),
		&mdcv1.SaveQuotesRequest{Data: &mdcv1.QuotesData{Timestamp: *timestamp, Quotes: items}})
	return err
}

// reader reads one quote as of an instant and returns its timestamp and
// last price.
type reader func(symbol, datetime string) (time.Time, float64, error)

func httpReader(base, token string) reader {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}, Timeout: 30 * time.Second}
	return func(sym, datetime string) (time.Time, float64, error) {
		req, err := http.NewRequest("GET", base+"/v1/developer/quote?symbol="+url.QueryEscape(sym)+
			"&datetime="+datetime, nil)
		if err != nil {
			return time.Time{}, 0, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return time.Time{}, 0, err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return time.Time{}, 0, err
		}
		if resp.StatusCode != http.StatusOK {
			return time.Time{}, 0, fmt.Errorf("HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
		}
		var q mdcv1.StockQuote
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(body, &q); err != nil {
			return time.Time{}, 0, err
		}
		return q.GetTimestamp().AsTime(), q.GetQuoteData().GetPayload().GetLastPrice(), nil
	}
}

func grpcReader(conn *grpc.ClientConn, token string) reader {
	dev := mdcv1.NewDeveloperServiceClient(conn)
	ctx := authed(token)
	return func(sym, datetime string) (time.Time, float64, error) {
		q, err := dev.GetQuote(ctx, &mdcv1.GetQuoteRequest{Symbol: sym, Datetime: datetime})
		if err != nil {
			return time.Time{}, 0, err
		}
		return q.GetTimestamp().AsTime(), q.GetQuoteData().GetPayload().GetLastPrice(), nil
	}
}

func runCommand(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	mode := fs.String("mode", "http", "http (through mdc-gateway) or grpc (mdc-server directly)")
	base := fs.String("url", "http://127.0.0.1:8080", "mdc-gateway base URL")
	addr := fs.String("grpc", "127.0.0.1:50051", "mdc-server gRPC address")
	token := fs.String("token", "", "developer token")
	daysFlag := fs.String("days", "", "comma-separated trading days YYYY-MM-DD of the history")
	symbols := fs.Int("symbols", 2000, "symbols in the history")
	conns := fs.Int("conns", 1, "concurrent clients (each one request at a time)")
	warmup := fs.Duration("warmup", 2*time.Second, "warm-up, not measured")
	duration := fs.Duration("duration", 10*time.Second, "measured time")
	seed := fs.Int64("seed", time.Now().UnixNano(), "random seed")
	fs.Parse(args)
	var days []time.Time
	for _, d := range strings.Split(*daysFlag, ",") {
		t, err := time.ParseInLocation("2006-01-02", strings.TrimSpace(d), ist)
		if err != nil {
			return fmt.Errorf("-days: %v", err)
		}
		days = append(days, t.Add(9*time.Hour+15*time.Minute))
	}
	var read reader
	switch *mode {
	case "http":
		read = httpReader(strings.TrimRight(*base, "/"), *token)
	case "grpc":
		conn, err := grpc.NewClient(*addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer conn.Close()
		read = grpcReader(conn, *token)
	default:
		return fmt.Errorf("-mode: http or grpc")
	}

	type result struct {
		lat          []time.Duration
		errors       int
		wrong        int
		firstProblem string
	}
	results := make([]result, *conns)
	start := time.Now()
	measureFrom := start.Add(*warmup)
	end := measureFrom.Add(*duration)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(*seed + int64(c)*7919))
			r := &results[c]
			for {
				sym := rng.Intn(*symbols)
				open := days[rng.Intn(len(days))]
				second := rng.Intn(sessionMinutes * 60)
				at := open.Add(time.Duration(second) * time.Second)
				t0 := time.Now()
				if t0.After(end) {
					return
				}
				stamp, got, err := read(symbol(sym), at.Format("2006-01-02T15:04:05"))
				t1 := time.Now()
				if t0.Before(measureFrom) {
					continue
				}
				r.lat = append(r.lat, t1.Sub(t0))
				minute := second / 60
				want := open.Add(time.Duration(minute) * time.Minute)
				switch {
				case err != nil:
					r.errors++
					if r.firstProblem == "" {
						r.firstProblem = fmt.Sprintf("%s at %s: %v", symbol(sym), at.Format(time.RFC3339), err)
					}
				case !stamp.Equal(want) || got != price(sym, minute):
					r.wrong++
					if r.firstProblem == "" {
						r.firstProblem = fmt.Sprintf("%s at %s: got %s price %v, want %s price %v", symbol(sym),
							at.Format(time.RFC3339), stamp.Format(time.RFC3339), got, want.Format(time.RFC3339), price(sym, minute))
					}
				}
			}
		}(c)
	}
	wg.Wait()
	var all []time.Duration
	errors, wrong := 0, 0
	for _, r := range results {
		all = append(all, r.lat...)
		errors += r.errors
		wrong += r.wrong
		if r.firstProblem != "" {
			fmt.Fprintln(os.Stderr, "asof_history: first problem:", r.firstProblem)
		}
	}
	if len(all) == 0 {
		return fmt.Errorf("no request measured")
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	pct := func(p float64) int64 { return all[int(float64(len(all)-1)*p)].Microseconds() }
	fmt.Printf("RESULT requests=%d errors=%d wrong=%d seconds=%.1f rps=%.1f p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
		len(all), errors, wrong, duration.Seconds(), float64(len(all))/duration.Seconds(),
		pct(0.5), pct(0.9), pct(0.99), all[len(all)-1].Microseconds())
	return nil
}
